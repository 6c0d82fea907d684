import { Migration } from '@mikro-orm/migrations';

/** Sellers, shops, API keys, admins, payments and idempotency records. */
export class Migration20261123000000_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "sellers" (
      "id" text primary key,
      "email" text not null constraint "sellers_email_unique" unique,
      "status" text not null default 'active' check ("status" in ('active', 'inactive', 'suspended')),
      "created_at" timestamptz not null default now())`);

    this.addSql(`create table "shops" (
      "id" text primary key,
      "seller_id" text not null references "sellers" ("id"),
      "name" text not null,
      "status" text not null default 'active' check ("status" in ('active', 'inactive')),
      "webhook_url" text null,
      "webhook_secret" text not null,
      "created_at" timestamptz not null default now(),
      "deleted_at" timestamptz null)`);
    // Spec: one shop per seller account. A deleted shop may be replaced (the key-rotation procedure).
    this.addSql(`create unique index "shops_one_live_shop_per_seller" on "shops" ("seller_id") where "deleted_at" is null`);

    this.addSql(`create table "api_keys" (
      "id" text primary key,
      "shop_id" text not null references "shops" ("id"),
      "key_hash" text not null constraint "api_keys_key_hash_unique" unique,
      "display_prefix" text not null,
      "created_at" timestamptz not null default now(),
      "revoked_at" timestamptz null)`);
    this.addSql(`create index "api_keys_shop_idx" on "api_keys" ("shop_id")`);

    this.addSql(`create table "admins" (
      "id" text primary key,
      "email" text not null constraint "admins_email_unique" unique,
      "token_hash" text not null constraint "admins_token_hash_unique" unique,
      "created_at" timestamptz not null default now(),
      "revoked_at" timestamptz null)`);

    this.addSql(`create table "payments" (
      "id" text primary key,
      "shop_id" text not null references "shops" ("id"),
      "amount" bigint not null check ("amount" >= 50),
      "currency" varchar(3) not null default 'usd' check ("currency" = 'usd'),
      "status" text not null default 'pending' check ("status" in ('pending', 'completed', 'failed', 'refunded')),
      "return_url" text not null,
      "customer_email" text null,
      "customer_name" text null,
      "metadata" json not null default '{}',
      "created_at" timestamptz not null default now(),
      "completed_at" timestamptz null,
      "failure_code" text null)`);
    this.addSql(`create index "payments_shop_created_idx" on "payments" ("shop_id", "created_at" desc, "id" desc)`);
    this.addSql(`create index "payments_shop_status_created_idx" on "payments" ("shop_id", "status", "created_at" desc, "id" desc)`);

    this.addSql(`create table "idempotency_records" (
      "id" bigserial primary key,
      "shop_id" text not null references "shops" ("id"),
      "key" varchar(255) not null,
      "request" json not null,
      "response" json not null,
      "payment_id" text not null references "payments" ("id"),
      "created_at" timestamptz not null default now(),
      constraint "idempotency_records_shop_key_unique" unique ("shop_id", "key"))`);
    this.addSql(`create index "idempotency_records_created_idx" on "idempotency_records" ("created_at")`);
  }
}
