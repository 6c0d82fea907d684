import { Migration } from '@mikro-orm/migrations';

/**
 * The admin console: refund requests, withdrawals (held in the ledger), the append-only audit log, and
 * indexes for support's payment search.
 */
export class Migration20261124000000_admin_console extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "refunds" (
      "id" text primary key,
      "payment_id" text not null references "payments" ("id"),
      "amount" bigint not null check ("amount" > 0),
      "reason" text not null,
      "status" text not null default 'requested'
        check ("status" in ('requested', 'approved', 'rejected', 'processing', 'refunded', 'failed')),
      "requested_by_id" text not null references "admins" ("id"),
      "reviewed_by_id" text null references "admins" ("id"),
      "rejection_reason" text null,
      "failure_reason" text null,
      "processor_reference" text null,
      "attempts" int not null default 0,
      "created_at" timestamptz not null default now(),
      "reviewed_at" timestamptz null,
      "claimed_at" timestamptz null,
      "refunded_at" timestamptz null)`);
    // One open request per payment, and a payment refunded at most once: whatever the code does, a second
    // request that is requested, approved, processing or refunded cannot exist beside the first.
    this.addSql(`create unique index "refunds_one_open_per_payment" on "refunds" ("payment_id")
      where "status" in ('requested', 'approved', 'processing', 'refunded')`);
    this.addSql(`create index "refunds_status_created_idx" on "refunds" ("status", "created_at", "id")`);

    this.addSql(`create table "withdrawals" (
      "id" text primary key,
      "seller_id" text not null references "sellers" ("id"),
      "shop_id" text not null references "shops" ("id"),
      "amount" bigint not null check ("amount" >= 1000),
      "status" text not null default 'requested' check ("status" in ('requested', 'approved', 'rejected', 'paid')),
      "requested_by_id" text null references "admins" ("id"),
      "reviewed_by_id" text null references "admins" ("id"),
      "rejection_reason" text null,
      "payout_reference" text null,
      "created_at" timestamptz not null default now(),
      "reviewed_at" timestamptz null,
      "paid_at" timestamptz null)`);
    this.addSql(`create index "withdrawals_status_created_idx" on "withdrawals" ("status", "created_at", "id")`);
    this.addSql(`create index "withdrawals_seller_created_idx" on "withdrawals" ("seller_id", "created_at" desc)`);

    // Withdrawals move money too: a hold, its release or its payout is written once per withdrawal.
    this.addSql(`alter table "ledger_entries" drop constraint "ledger_entries_account_check"`);
    this.addSql(`alter table "ledger_entries" add constraint "ledger_entries_account_check"
      check ("account" in ('customer_funds', 'seller_balance', 'fee_revenue', 'withdrawals_payable', 'payouts'))`);
    this.addSql(`alter table "ledger_entries" add column "withdrawal_id" text null references "withdrawals" ("id")`);
    this.addSql(`create unique index "ledger_entries_withdrawal_kind_account_unique" on "ledger_entries" ("withdrawal_id", "kind", "account")
      where "withdrawal_id" is not null`);
    this.addSql(`create index "ledger_entries_seller_kind_idx" on "ledger_entries" ("seller_id", "kind") where "seller_id" is not null`);

    this.addSql(`create table "audit_log" (
      "id" bigserial primary key,
      "admin_id" text null references "admins" ("id"),
      "actor" text not null,
      "action" text not null,
      "target_type" text not null,
      "target_id" text not null,
      "reason" text null,
      "details" jsonb not null default '{}',
      "created_at" timestamptz not null default now())`);
    this.addSql(`create index "audit_log_target_idx" on "audit_log" ("target_id", "id")`);
    this.addSql(`create index "audit_log_created_idx" on "audit_log" ("created_at" desc, "id" desc)`);
    this.addSql(`create function "audit_log_refuse_change"() returns trigger language plpgsql as $$
      begin raise exception 'audit_log is append-only: % refused', tg_op; end $$`);
    this.addSql(`create trigger "audit_log_append_only" before update or delete on "audit_log"
      for each row execute function "audit_log_refuse_change"()`);
    this.addSql(`create trigger "audit_log_no_truncate" before truncate on "audit_log"
      for each statement execute function "audit_log_refuse_change"()`);

    // Support's payment search: newest first across shops, by status, by customer e-mail.
    this.addSql(`create index "payments_created_idx" on "payments" ("created_at" desc, "id" desc)`);
    this.addSql(`create index "payments_status_created_idx" on "payments" ("status", "created_at" desc, "id" desc)`);
    this.addSql(`create index "payments_customer_email_idx" on "payments" (lower("customer_email"), "created_at" desc)
      where "customer_email" is not null`);
  }
}
