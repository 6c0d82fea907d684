import { Migration } from '@mikro-orm/migrations';

/**
 * The acquirer's events as facts, applied in their own order (docs/decisions/0020-acquirer-events-as-facts.md):
 *  - `adyen_notifications` keeps each item's `event_date`, its place in the lifecycle and the payment it belongs to
 *    (`order_key`: the payment's PSP reference), so the inbox applies a payment's items one at a time in the acquirer's
 *    order; an item whose predecessor has not arrived yet is `waiting`, not flagged;
 *  - a payment may have several disputes, one per acquirer dispute reference, each keeping the events it was told
 *    (`dispute_events`), from which its state is derived; those recorded before get the path their state implies;
 *  - dispute journals name their dispute (`ledger_entries.dispute_id`, filled in for those booked before), so each
 *    dispute's money is what its journals sum to; a payment's own journals stay unique per kind and account.
 * Written out in full: a migration never reads today's code.
 */
export class Migration20261204000000_acquirer_facts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "adyen_notifications"
      add column "event_date" timestamptz null,
      add column "place" smallint not null default 0,
      add column "order_key" text null`);
    this.addSql(`update "adyen_notifications" set "order_key" = coalesce("original_reference", "psp_reference")`);
    this.addSql(`alter table "adyen_notifications" drop constraint "adyen_notifications_status_check",
      add constraint "adyen_notifications_status_check" check ("status" in ('received', 'waiting', 'applied', 'flagged', 'rejected'))`);
    this.addSql(`create index "adyen_notifications_order_idx" on "adyen_notifications" ("order_key", "event_date", "place", "id") where "status" in ('received', 'waiting')`);

    this.addSql(`alter table "disputes" drop constraint "disputes_payment_unique"`);
    this.addSql(`alter table "disputes" add constraint "disputes_payment_reference_unique" unique ("payment_id", "acquirer_reference")`);
    this.addSql(`create table "dispute_events" (
      "id" bigserial primary key,
      "dispute_id" text not null references "disputes" ("id"),
      "step" text not null,
      "event_date" timestamptz not null,
      "amount" bigint not null,
      "received_at" timestamptz not null default now(),
      constraint "dispute_events_step_unique" unique ("dispute_id", "step"))`);
    this.addSql(`insert into "dispute_events" ("dispute_id", "step", "event_date", "amount")
      select d."id", path.step, d."opened_at" + path.n * interval '1 millisecond', d."amount"
      from "disputes" d cross join lateral unnest(case d."status"
        when 'notified' then array['open']
        when 'charged_back' then array['chargeBack']
        when 'reversed' then array['chargeBack', 'reverse']
        when 'second_chargeback' then array['chargeBack', 'reverse', 'secondChargeback']
        when 'won' then array['chargeBack', 'reverse', 'secondChargeback', 'win']
        when 'lost' then array['chargeBack', 'lose']
        when 'closed' then array['open', 'close'] end) with ordinality as path(step, n)`);

    this.addSql(`alter table "ledger_entries" add column "dispute_id" text null references "disputes" ("id")`);
    // The ledger refuses updates (append-only); naming the dispute of journals booked before is the one exception.
    this.addSql(`alter table "ledger_entries" disable trigger "ledger_entries_append_only"`);
    this.addSql(`update "ledger_entries" e set "dispute_id" = d."id" from "disputes" d
      where d."payment_id" = e."payment_id" and e."kind" in ('chargeback', 'chargeback_reversed', 'second_chargeback', 'dispute_won')`);
    this.addSql(`alter table "ledger_entries" enable trigger "ledger_entries_append_only"`);
    this.addSql(`drop index "ledger_entries_payment_kind_account_unique"`);
    this.addSql(`create unique index "ledger_entries_payment_kind_account_unique" on "ledger_entries" ("payment_id", "kind", "account")
      where "payment_id" is not null and "refund_id" is null and "dispute_id" is null`);
    this.addSql(`create index "ledger_entries_dispute_idx" on "ledger_entries" ("dispute_id") where "dispute_id" is not null`);
  }
}
