import { Migration } from '@mikro-orm/migrations';

/**
 * Sessions that follow the seller's standing, and sign-in lockouts strangers cannot cause (docs/dashboard.md,
 * "Standing of a session" and "Lockout"):
 * - `shops.deleted_by_admin` tells an owner admin's deletion from the seller's own: a seller whose shop an admin
 *   closed cannot open a new one from the dashboard. Shops deleted before this migration are marked from the
 *   audit log (every admin deletion wrote `shop.deleted`; a seller's own deletion wrote none).
 * - `known_devices`: a browser that signed in to an account before (its cookie token, stored as SHA-256) and
 *   that browser's own count of failed sign-ins and lock, apart from the account's count for everyone else.
 *   One row per browser and account (`sel_…` or `adm_…`).
 */
export class Migration20261129000000_session_standing_and_known_devices extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "shops" add column "deleted_by_admin" boolean not null default false`);
    this.addSql(`update "shops" set "deleted_by_admin" = true
      where "deleted_at" is not null
        and "id" in (select "target_id" from "audit_log" where "action" = 'shop.deleted' and "target_type" = 'shop')`);

    this.addSql(`create table "known_devices" (
      "token_hash" text not null,
      "account_id" text not null,
      "created_at" timestamptz not null,
      "last_used_at" timestamptz not null,
      "failed_sign_ins" integer not null default 0,
      "locked_until" timestamptz null,
      primary key ("token_hash", "account_id"))`);
    this.addSql(`create index "known_devices_account_idx" on "known_devices" ("account_id")`);
  }
}
