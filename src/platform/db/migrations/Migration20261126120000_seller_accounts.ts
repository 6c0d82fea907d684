import { Migration } from '@mikro-orm/migrations';

/**
 * Seller accounts for the dashboard (docs/dashboard.md): a password (scrypt) and sign-in lockout on the
 * seller, server-side sessions (only the hash of the session id is stored) and single-use e-mail
 * verification tokens. Sellers created before (by an operator, CLI or admin) count as verified.
 */
export class Migration20261126120000_seller_accounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "sellers"
      add column "password_hash" text null,
      add column "email_verified_at" timestamptz null,
      add column "failed_sign_ins" integer not null default 0,
      add column "locked_until" timestamptz null`);
    this.addSql(`update "sellers" set "email_verified_at" = "created_at"`);

    this.addSql(`create table "seller_sessions" (
      "id" text primary key,
      "seller_id" text not null references "sellers" ("id"),
      "token_hash" text not null constraint "seller_sessions_token_hash_unique" unique,
      "created_at" timestamptz not null,
      "last_seen_at" timestamptz not null,
      "revoked_at" timestamptz null)`);
    this.addSql(`create index "seller_sessions_seller_idx" on "seller_sessions" ("seller_id") where "revoked_at" is null`);

    this.addSql(`create table "email_verifications" (
      "token_hash" text primary key,
      "seller_id" text not null references "sellers" ("id"),
      "expires_at" timestamptz not null,
      "used_at" timestamptz null)`);
  }
}
