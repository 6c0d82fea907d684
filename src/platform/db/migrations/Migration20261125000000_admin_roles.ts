import { Migration } from '@mikro-orm/migrations';

/**
 * Separated admin duties (docs/admin.md): a role per admin, and bearer tokens in their own table so an
 * admin can hold several, each expiring and revocable. Admins that existed before become `owner` (they
 * could do everything, and an owner can hand duties to new support and finance admins); their one token
 * moves to the new table and expires 90 days after this migration.
 */
export class Migration20261125000000_admin_roles extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "admins" add column "role" text not null default 'owner'
      constraint "admins_role_check" check ("role" in ('support', 'finance', 'owner'))`);
    this.addSql(`alter table "admins" alter column "role" drop default`);

    this.addSql(`create table "admin_tokens" (
      "id" text primary key,
      "admin_id" text not null references "admins" ("id"),
      "token_hash" text not null constraint "admin_tokens_token_hash_unique" unique,
      "created_at" timestamptz not null default now(),
      "expires_at" timestamptz not null,
      "revoked_at" timestamptz null,
      "revoked_by_id" text null references "admins" ("id"))`);
    this.addSql(`create index "admin_tokens_admin_idx" on "admin_tokens" ("admin_id", "created_at" desc)`);
    this.addSql(`insert into "admin_tokens" ("id", "admin_id", "token_hash", "created_at", "expires_at")
      select 'atk_' || substr(md5(random()::text || "id"), 1, 16), "id", "token_hash", "created_at", now() + interval '90 days'
        from "admins"`);
    this.addSql(`alter table "admins" drop column "token_hash"`);
  }
}
