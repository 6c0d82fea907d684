import { Migration } from '@mikro-orm/migrations';

/**
 * Each admin's credentials are their own (docs/admin.md, "Admin tokens"):
 *
 * - `admin_tokens.issued_by_id`: the admin who issued the token, null when the CLI did (`create-admin`, and the
 *   tokens the roles migration moved). Filled in from the audit log's `admin_token.issued` entries, which name
 *   the issuer and the token.
 * - A token an admin issued for another admin carries someone else's identity: such tokens still live are
 *   revoked here (by the operations side, as `revoke-admin` does: no revoking admin), each with an audit entry.
 * - `audit_log.credential_kind`, `credential_id`, `credential_issued_by`: the token or console session an
 *   entry's admin acted with, and who issued it (an admin id, or `cli`). Null for older entries and for the CLI.
 */
export class Migration20261129010000_own_admin_credentials extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "admin_tokens" add column "issued_by_id" text null references "admins" ("id")`);
    this.addSql(`update "admin_tokens" as t set "issued_by_id" = a."admin_id"
      from "audit_log" as a
      where a."action" = 'admin_token.issued' and a."admin_id" is not null and a."details" ->> 'tokenId' = t."id"`);
    this.addSql(`with "revoked" as (
        update "admin_tokens" set "revoked_at" = now()
        where "issued_by_id" is not null and "issued_by_id" <> "admin_id" and "revoked_at" is null
        returning "id", "admin_id", "issued_by_id")
      insert into "audit_log" ("admin_id", "actor", "action", "target_type", "target_id", "reason", "details")
      select null, 'cli', 'admin_token.revoked', 'admin', "admin_id",
        'Issued by another admin: an admin token belongs to its own admin only',
        jsonb_build_object('tokenId', "id", 'issuedBy', "issued_by_id")
      from "revoked"`);

    this.addSql(`alter table "audit_log"
      add column "credential_kind" text null constraint "audit_log_credential_kind_check" check ("credential_kind" in ('token', 'session')),
      add column "credential_id" text null,
      add column "credential_issued_by" text null`);
  }
}
