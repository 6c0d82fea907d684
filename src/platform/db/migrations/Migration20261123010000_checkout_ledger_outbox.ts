import { Migration } from '@mikro-orm/migrations';

/**
 * Checkout progress and card summary on payments, the append-only double-entry ledger, and the
 * outbox of webhook events written in the same transaction as the state change that causes them.
 */
export class Migration20261123010000_checkout_ledger_outbox extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "payments"
      add column "checkout_stage" text not null default 'card_required'
        check ("checkout_stage" in ('card_required', 'processing', 'authentication_required', 'finished')),
      add column "three_ds_outcome" text null check ("three_ds_outcome" in ('frictionless', 'challenged', 'failed')),
      add column "three_ds_reference" text null,
      add column "card_brand" text null,
      add column "card_last4" varchar(4) null,
      add column "card_exp_month" smallint null,
      add column "card_exp_year" smallint null,
      add column "processor_reference" text null`);

    this.addSql(`create table "ledger_entries" (
      "id" bigserial primary key,
      "journal_id" text not null,
      "account" text not null check ("account" in ('customer_funds', 'seller_balance', 'fee_revenue', 'withdrawals_payable')),
      "seller_id" text null references "sellers" ("id"),
      "payment_id" text null references "payments" ("id"),
      "kind" text not null,
      "amount" bigint not null check ("amount" <> 0),
      "created_at" timestamptz not null default now(),
      check (("account" = 'seller_balance') = ("seller_id" is not null)))`);
    this.addSql(`create index "ledger_entries_seller_idx" on "ledger_entries" ("seller_id", "id") where "seller_id" is not null`);
    this.addSql(`create index "ledger_entries_journal_idx" on "ledger_entries" ("journal_id")`);
    // A payment's money moves once per kind: a second credit or fee for it cannot be written.
    this.addSql(`create unique index "ledger_entries_payment_kind_account_unique" on "ledger_entries" ("payment_id", "kind", "account") where "payment_id" is not null`);

    // Append-only: corrections are new entries, never edits.
    this.addSql(`create function "ledger_entries_refuse_change"() returns trigger language plpgsql as $$
      begin raise exception 'ledger_entries is append-only: % refused', tg_op; end $$`);
    this.addSql(`create trigger "ledger_entries_append_only" before update or delete on "ledger_entries"
      for each row execute function "ledger_entries_refuse_change"()`);
    this.addSql(`create trigger "ledger_entries_no_truncate" before truncate on "ledger_entries"
      for each statement execute function "ledger_entries_refuse_change"()`);

    // Double entry: every journal's entries sum to zero, checked when the transaction commits.
    this.addSql(`create function "ledger_journal_balances"() returns trigger language plpgsql as $$
      declare total numeric;
      begin
        select sum("amount") into total from "ledger_entries" where "journal_id" = new."journal_id";
        if total <> 0 then raise exception 'ledger journal % does not balance (sum %)', new."journal_id", total; end if;
        return null;
      end $$`);
    this.addSql(`create constraint trigger "ledger_journal_balanced" after insert on "ledger_entries"
      deferrable initially deferred for each row execute function "ledger_journal_balances"()`);

    this.addSql(`create table "webhook_events" (
      "id" text primary key,
      "shop_id" text not null references "shops" ("id"),
      "payment_id" text not null references "payments" ("id"),
      "type" text not null,
      "sequence" int not null,
      "body" text not null,
      "created_at" timestamptz not null default now(),
      constraint "webhook_events_payment_sequence_unique" unique ("payment_id", "sequence"))`);
    this.addSql(`create index "webhook_events_shop_created_idx" on "webhook_events" ("shop_id", "created_at" desc)`);
  }
}
