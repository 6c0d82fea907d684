import { Migration } from '@mikro-orm/migrations';

/**
 * A seller's account status (docs/admin.md, "Sellers and shops"), which caps the amount of each payment; apart from
 * `status` (access). Sellers that already exist become `verified`: they took payments of any amount
 * until now, and capping them silently would break their integrations. New sellers start `new`.
 */
export class Migration20261126000000_seller_account_status extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "sellers" add column "account_status" text not null default 'verified'
      constraint "sellers_account_status_check" check ("account_status" in ('new', 'verified', 'restricted'))`);
    this.addSql(`alter table "sellers" alter column "account_status" set default 'new'`);
  }
}
