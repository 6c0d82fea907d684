import { Migration } from '@mikro-orm/migrations';

/** The expiry sweep (docs/checkout.md, "Expiry") looks for old pending payments: only those are indexed. */
export class Migration20261127010000_payment_expiry extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "payments_pending_created_idx" on "payments" ("created_at") where "status" in ('pending')`);
  }
}
