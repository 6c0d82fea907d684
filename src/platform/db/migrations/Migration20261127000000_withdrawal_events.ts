import { Migration } from '@mikro-orm/migrations';

/**
 * Withdrawal events (withdrawal.paid, withdrawal.rejected; docs/reference.md, "Webhooks") are about a withdrawal, not a
 * payment: the outbox row names it, and its sequence counts per withdrawal.
 */
export class Migration20261127000000_withdrawal_events extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_events"
      add column "withdrawal_id" text null references "withdrawals" ("id"),
      add constraint "webhook_events_withdrawal_sequence_unique" unique ("withdrawal_id", "sequence"),
      drop constraint "webhook_events_payment_unless_test",
      add constraint "webhook_events_subject_unless_test" check ("test" or "payment_id" is not null or "withdrawal_id" is not null)`);
  }
}
