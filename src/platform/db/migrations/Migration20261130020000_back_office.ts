import { Migration } from '@mikro-orm/migrations';

/**
 * The back office at /admin (docs/admin.md):
 * - `refunds.review_reminded_at`: when finance was mailed that the request nears the 24-hour review promise
 *   (src/modules/refunds/refund-review-reminders.ts); set once, so each request is reminded about once;
 * - payment search by the start of the customer's e-mail address (`lower(customer_email) like 'jan%'`) and by a
 *   metadata key and value (`metadata::jsonb @> '{"order":"42"}'`): an index for each expression, so neither
 *   reads the whole table;
 * - the audit log by admin (id, or e-mail address as written).
 */
export class Migration20261130020000_back_office extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "refunds" add column "review_reminded_at" timestamptz null`);
    this.addSql(`create index if not exists "payments_customer_email_prefix_idx" on "payments" (lower("customer_email") text_pattern_ops) where "customer_email" is not null`);
    this.addSql(`create index if not exists "payments_metadata_idx" on "payments" using gin (("metadata"::jsonb) jsonb_path_ops)`);
    this.addSql(`create index if not exists "audit_log_admin_idx" on "audit_log" ("admin_id", "id")`);
    this.addSql(`create index if not exists "audit_log_actor_idx" on "audit_log" (lower("actor"), "id")`);
  }
}
