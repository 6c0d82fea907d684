import { Migration } from '@mikro-orm/migrations';

/**
 * A seller may ask for a refund from the dashboard (docs/dashboard.md): such a request has no admin behind it,
 * so `refunds.requested_by_id` may be null. Approval stays with finance (four eyes hold trivially).
 */
export class Migration20261127090000_seller_refund_requests extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "refunds" alter column "requested_by_id" drop not null`);
  }

}
