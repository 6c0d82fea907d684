import { Migration } from '@mikro-orm/migrations';

/**
 * The dashboard's balance transactions and monthly statements (docs/dashboard.md, "Balance"): a seller's
 * balance lines by date. A month's lines are a range of this index, and its opening balance (every line dated
 * before the month) an index-only sum over it, without reading the table.
 */
export class Migration20261130010000_seller_balance_history extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "ledger_entries_seller_balance_created_idx" on "ledger_entries" ("seller_id", "created_at", "id") include ("amount", "kind")
      where "account" = 'seller_balance'`);
  }
}
