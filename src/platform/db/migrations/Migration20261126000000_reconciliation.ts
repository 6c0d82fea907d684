import { Migration } from '@mikro-orm/migrations';

/**
 * Reconciliation of unknown acquirer outcomes (docs/checkout.md, "Reconciliation"):
 *  - payments: when the card went to the acquirer (`processing_since`), the sweeper's per-row lease
 *    (`reconcile_leased_until`, so one instance asks the acquirer at a time), and the admins' flag
 *    (`needs_attention_at`) once the outcome is still unknown after RECONCILE_GIVE_UP_MS;
 *  - refunds: the same lease and flag (their `claimed_at` already says since when they are processing);
 *  - the simulated acquirer's own record of what it charged and refunded, so that its look-up survives a
 *    restart of the service as a real acquirer's would. Only the simulator reads or writes that table.
 */
export class Migration20261126000000_reconciliation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "payments" add column "processing_since" timestamptz null,
      add column "reconcile_leased_until" timestamptz null, add column "needs_attention_at" timestamptz null`);
    // Payments stuck before this migration count from now: they are looked up after RECONCILE_AFTER_MS.
    this.addSql(`update "payments" set "processing_since" = now() where "checkout_stage" = 'processing'`);
    this.addSql(`create index "payments_processing_idx" on "payments" ("processing_since") where "checkout_stage" = 'processing'`);
    this.addSql(`alter table "refunds" add column "reconcile_leased_until" timestamptz null, add column "needs_attention_at" timestamptz null`);

    this.addSql(`create table "simulated_acquirer_operations" (
      "kind" text not null constraint "simulated_acquirer_operations_kind_check" check ("kind" in ('authorization', 'refund')),
      "our_reference" text not null,
      "outcome" text not null,
      "acquirer_reference" text null,
      "loses_answers" boolean not null default false,
      "created_at" timestamptz not null default now(),
      primary key ("kind", "our_reference"))`);
  }
}
