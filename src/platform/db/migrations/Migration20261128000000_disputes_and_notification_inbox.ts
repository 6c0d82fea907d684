import { Migration } from '@mikro-orm/migrations';

/**
 * Disputes and the acquirer's notification inbox (docs/acquirers.md):
 *  - `disputes` replaces `chargebacks`: one dispute per payment, moved by the dispute lifecycle, each money move
 *    booked by its own journal: the seller bears `seller_share` of it, `platform_disputes` the rest;
 *  - `ledger_entries.refund_id`: a refund's journals are unique per refund, so a payment whose refund the
 *    acquirer reversed can be refunded again;
 *  - `adyen_notifications` becomes an inbox: every item is stored before the answer, once per (pspReference,
 *    eventCode, success), and applied afterwards with retries; malformed and mismatching items are kept and flagged.
 */
export class Migration20261128000000_disputes_and_notification_inbox extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "disputes" (
      "id" text primary key,
      "payment_id" text not null references "payments" ("id"),
      "status" text not null,
      "amount" bigint not null constraint "disputes_amount_positive" check ("amount" > 0),
      "currency" text not null,
      "reason" text null,
      "acquirer_reference" text not null,
      "seller_share" bigint not null default 0 constraint "disputes_seller_share_within_amount" check ("seller_share" between 0 and "amount"),
      "evidence_refund_id" text null references "refunds" ("id"),
      "contest_flagged_at" timestamptz null,
      "opened_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "disputes_payment_unique" unique ("payment_id"))`);
    this.addSql(`create index "disputes_status_idx" on "disputes" ("status", "opened_at")`);
    // A recorded chargeback was booked against the seller: it becomes a charged-back dispute.
    this.addSql(`insert into "disputes" ("id", "payment_id", "status", "amount", "seller_share", "currency", "reason", "acquirer_reference", "opened_at", "updated_at")
      select 'dp_' || substr(md5("id"), 1, 24), "payment_id", 'charged_back', "amount", "amount", "currency", "reason", "psp_reference", "created_at", "created_at" from "chargebacks"`);
    this.addSql(`drop table "chargebacks"`);

    this.addSql(`alter table "ledger_entries" drop constraint "ledger_entries_account_check"`);
    this.addSql(`alter table "ledger_entries" add constraint "ledger_entries_account_check"
      check ("account" in ('customer_funds', 'seller_balance', 'fee_revenue', 'withdrawals_payable', 'payouts', 'platform_disputes'))`);
    this.addSql(`alter table "ledger_entries" add column "refund_id" text null references "refunds" ("id")`);
    this.addSql(`drop index "ledger_entries_payment_kind_account_unique"`);
    this.addSql(`create unique index "ledger_entries_payment_kind_account_unique" on "ledger_entries" ("payment_id", "kind", "account")
      where "payment_id" is not null and "refund_id" is null`);
    this.addSql(`create unique index "ledger_entries_refund_kind_account_unique" on "ledger_entries" ("refund_id", "kind", "account")
      where "refund_id" is not null`);

    this.addSql(`alter table "adyen_notifications"
      drop constraint "adyen_notifications_psp_event_unique",
      add constraint "adyen_notifications_psp_event_success_unique" unique ("psp_reference", "event_code", "success"),
      alter column "merchant_reference" drop not null,
      alter column "amount_value" drop not null,
      alter column "currency" drop not null,
      add column "status" text not null default 'applied' check ("status" in ('received', 'applied', 'flagged', 'rejected')),
      add column "problem" text null,
      add column "item" jsonb null,
      add column "attempts" integer not null default 0,
      add column "next_attempt_at" timestamptz not null default now(),
      add column "last_error" text null,
      add column "applied_at" timestamptz null`);
    this.addSql(`alter table "adyen_notifications" alter column "status" set default 'received'`);
    this.addSql(`create index "adyen_notifications_due_idx" on "adyen_notifications" ("next_attempt_at") where "status" = 'received'`);
    this.addSql(`create index "adyen_notifications_flagged_idx" on "adyen_notifications" ("received_at") where "status" in ('flagged', 'rejected')`);

    this.addSql(`alter table "payments" drop constraint if exists "payments_status_check", add constraint "payments_status_check" check ("status" in ('pending', 'completed', 'failed', 'refunded'))`);
    this.addSql(`alter table "payments" drop constraint if exists "payments_checkout_stage_check", add constraint "payments_checkout_stage_check" check ("checkout_stage" in ('card_required', 'processing', 'authentication_required', 'finished'))`);
    this.addSql(`alter table "payments" alter column "status" set default 'pending'`);
    this.addSql(`alter table "payments" alter column "checkout_stage" set default 'card_required'`);
    this.addSql(`alter table "refunds" drop constraint if exists "refunds_status_check", add constraint "refunds_status_check" check ("status" in ('requested', 'approved', 'rejected', 'processing', 'refunded', 'reversed', 'failed'))`);
    this.addSql(`alter table "refunds" alter column "status" set default 'requested'`);
    this.addSql(`alter table "disputes" drop constraint if exists "disputes_status_check", add constraint "disputes_status_check" check ("status" in ('notified', 'charged_back', 'reversed', 'second_chargeback', 'won', 'lost', 'closed'))`);
    this.addSql(`alter table "disputes" alter column "status" set default 'notified'`);
  }
}
