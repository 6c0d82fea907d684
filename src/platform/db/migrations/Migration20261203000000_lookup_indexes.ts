import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes for the look-ups by payment and by seller that had none, so each read every row of its table:
 * - a payment's ledger entries (the back office's payment page, a dispute's history, check-ledger): the unique
 *   index on (payment_id, kind, account) leaves refund entries out, so it serves no query over all of them;
 * - a payment's refunds (refund requests, `refundedAmount`, live-test refunds, check-ledger);
 * - a seller's shops whatever their state (balances, standing, check-ledger): the unique index holds live shops only.
 * Building an index blocks writes to its table meanwhile. On a large ledger, build them first by hand with
 * `create index concurrently if not exists` and these names (docs/operations.md): this migration then skips them.
 */
export class Migration20261203000000_lookup_indexes extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index if not exists "ledger_entries_payment_idx" on "ledger_entries" ("payment_id", "id") where "payment_id" is not null');
    this.addSql('create index if not exists "refunds_payment_idx" on "refunds" ("payment_id")');
    this.addSql('create index if not exists "shops_seller_idx" on "shops" ("seller_id")');
  }
}
