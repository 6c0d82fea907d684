import { Migration } from '@mikro-orm/migrations';

/** Where a seller's withdrawals are paid (docs/dashboard.md, Withdrawals): holder and bank account number. */
export class Migration20261127090100_payout_accounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "sellers" add column "payout_account_holder" text null, add column "payout_account_number" text null`);
  }
}
