import { Migration } from '@mikro-orm/migrations';

/**
 * Account security (docs/dashboard.md): single-use tokens of mailed links (invitations, password resets,
 * admin set-up), TOTP two-factor for sellers and admins with hashed recovery codes, admin passwords with
 * the sellers' lockout, admin sessions, and the user agent of each session (for "active sessions").
 * Tokens and recovery codes name their account by its prefixed id (`sel_…` or `adm_…`).
 */
export class Migration20261127120000_account_security extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "account_tokens" (
      "token_hash" text primary key,
      "purpose" text not null check ("purpose" in ('invitation', 'password_reset', 'admin_setup')),
      "account_id" text not null,
      "created_at" timestamptz not null,
      "expires_at" timestamptz not null,
      "used_at" timestamptz null)`);
    this.addSql(`create index "account_tokens_account_idx" on "account_tokens" ("account_id", "purpose") where "used_at" is null`);

    this.addSql(`create table "recovery_codes" (
      "code_hash" text primary key,
      "account_id" text not null,
      "created_at" timestamptz not null,
      "used_at" timestamptz null)`);
    this.addSql(`create index "recovery_codes_account_idx" on "recovery_codes" ("account_id")`);

    for (const table of ['sellers', 'admins']) {
      this.addSql(`alter table "${table}"
        add column "totp_secret" text null,
        add column "totp_enabled_at" timestamptz null,
        add column "totp_last_step" bigint null`);
    }
    this.addSql(`alter table "admins"
      add column "password_hash" text null,
      add column "failed_sign_ins" integer not null default 0,
      add column "locked_until" timestamptz null`);

    this.addSql(`alter table "seller_sessions" add column "user_agent" text null`);
    this.addSql(`create table "admin_sessions" (
      "id" text primary key,
      "admin_id" text not null references "admins" ("id"),
      "token_hash" text not null constraint "admin_sessions_token_hash_unique" unique,
      "created_at" timestamptz not null,
      "last_seen_at" timestamptz not null,
      "revoked_at" timestamptz null,
      "user_agent" text null)`);
    this.addSql(`create index "admin_sessions_admin_idx" on "admin_sessions" ("admin_id") where "revoked_at" is null`);
  }
}
