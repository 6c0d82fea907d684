import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook delivery: one delivery per event sent to a shop's webhook URL, holding its retry schedule
 * (so a restart or a lost Redis loses nothing), and the log of every HTTP attempt. Test deliveries
 * are events without a payment.
 */
export class Migration20261123020000_webhook_deliveries extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_events"
      alter column "payment_id" drop not null,
      add column "test" boolean not null default false,
      add constraint "webhook_events_payment_unless_test" check ("test" or "payment_id" is not null)`);

    this.addSql(`create table "webhook_deliveries" (
      "id" text primary key,
      "event_id" text not null references "webhook_events" ("id") constraint "webhook_deliveries_event_unique" unique,
      "shop_id" text not null references "shops" ("id"),
      "payment_id" text null references "payments" ("id"),
      "status" text not null default 'pending' check ("status" in ('pending', 'delivered', 'failed')),
      "attempt_count" int not null default 0 check ("attempt_count" >= 0),
      "schedule_start" int not null default 0 check ("schedule_start" between 0 and "attempt_count"),
      "next_attempt_at" timestamptz null,
      "locked_until" timestamptz null,
      "enqueued_attempt" int null,
      "enqueued_at" timestamptz null,
      "last_attempt_at" timestamptz null,
      "delivered_at" timestamptz null,
      "failed_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      check (("status" = 'pending') = ("next_attempt_at" is not null)))`);
    // The relay's question, "what is due?", reads only pending rows.
    this.addSql(`create index "webhook_deliveries_due_idx" on "webhook_deliveries" ("next_attempt_at") where "status" = 'pending'`);
    this.addSql(`create index "webhook_deliveries_shop_idx" on "webhook_deliveries" ("shop_id", "created_at" desc)`);
    this.addSql(`create index "webhook_deliveries_payment_idx" on "webhook_deliveries" ("payment_id") where "payment_id" is not null`);

    this.addSql(`create table "webhook_attempts" (
      "id" bigserial primary key,
      "delivery_id" text not null references "webhook_deliveries" ("id"),
      "number" int not null check ("number" > 0),
      "url" text null,
      "started_at" timestamptz not null,
      "duration_ms" int null,
      "http_status" int null,
      "error" text null,
      "response_excerpt" text null,
      constraint "webhook_attempts_delivery_number_unique" unique ("delivery_id", "number"))`);
  }
}
