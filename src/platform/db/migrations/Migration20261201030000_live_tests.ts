import { Migration } from '@mikro-orm/migrations';

/**
 * Live tests (docs/dashboard.md, "Live test"): a seller pays 50 cents with their own card from the dashboard,
 * and the service refunds it at once, fee waived.
 * - `payments.test`: the payment is such a test. Only the dashboard's live-test mutation sets it; the check
 *   keeps a test at exactly the live-test amount whatever writes the row.
 * - `payments_live_tests_idx`: the daily limit counts a shop's tests of the day without reading its other payments;
 * - `payments_live_tests_completed_idx`: the refund sweep finds completed tests (a test leaves it once refunded).
 */
export class Migration20261201030000_live_tests extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "payments" add column "test" boolean not null default false,
      add constraint "payments_test_amount_check" check (not "test" or "amount" = 50)`);
    this.addSql(`create index "payments_live_tests_idx" on "payments" ("shop_id", "created_at") where "test"`);
    this.addSql(`create index "payments_live_tests_completed_idx" on "payments" ("id") where "test" and "status" = 'completed'`);
  }
}
