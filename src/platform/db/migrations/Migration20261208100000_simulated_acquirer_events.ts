import { Migration } from '@mikro-orm/migrations';

/**
 * The simulated acquirer tells what happens after a charge, as Adyen's notifications do (docs/checkout.md, "Test
 * cards"): a dispute a few seconds after its dispute card is charged, a refund failure after its refund-failure card's
 * refund was carried out, a chargeback reversed when a finance admin asks for it. Its events wait in its own table
 * until they are due; the service applies each through the same path as Adyen's. Only the simulator and that job
 * read or write it. `refunds_fail` marks an authorization whose refunds the card scheme will reject.
 */
export class Migration20261208100000_simulated_acquirer_events extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "simulated_acquirer_operations" add column "refunds_fail" boolean not null default false`);
    this.addSql(`create table "simulated_acquirer_events" (
      "id" bigserial primary key,
      "key" text not null constraint "simulated_acquirer_events_key_unique" unique,
      "payment_id" text not null,
      "event" jsonb not null,
      "due_at" timestamptz not null,
      "attempts" integer not null default 0,
      "told_at" timestamptz null,
      "effect" text null,
      "created_at" timestamptz not null default now())`);
    this.addSql(`create index "simulated_acquirer_events_due_idx" on "simulated_acquirer_events" ("due_at") where "told_at" is null`);
  }
}
