import { Migration } from '@mikro-orm/migrations';

/**
 * The Adyen processor (docs/acquirers.md):
 *  - `adyen_notifications`: every standard notification item Adyen sent, once per (pspReference, eventCode)
 *    (Adyen's own idempotency rule), so a replay changes nothing and reconciliation can read outcomes;
 *  - `chargebacks`: a CHARGEBACK booked against a payment (one per payment), with its own ledger journal;
 *  - `payments.three_ds_redirect`: where the customer goes to authenticate with the issuer (redirect flow),
 *    kept while the payment waits for the customer to come back; cleared when the answer is taken.
 */
export class Migration20261127050000_adyen extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "adyen_notifications" (
      "id" bigserial primary key,
      "psp_reference" text not null,
      "event_code" text not null,
      "success" boolean not null,
      "merchant_reference" text not null,
      "original_reference" text null,
      "amount_value" bigint not null,
      "currency" text not null,
      "reason" text null,
      "received_at" timestamptz not null default now(),
      constraint "adyen_notifications_psp_event_unique" unique ("psp_reference", "event_code"))`);
    this.addSql(`create index "adyen_notifications_reference_idx" on "adyen_notifications" ("merchant_reference", "event_code")`);
    this.addSql(`create table "chargebacks" (
      "id" text primary key,
      "payment_id" text not null references "payments" ("id"),
      "psp_reference" text not null,
      "amount" bigint not null constraint "chargebacks_amount_positive" check ("amount" > 0),
      "currency" text not null,
      "reason" text null,
      "created_at" timestamptz not null default now(),
      constraint "chargebacks_payment_unique" unique ("payment_id"))`);
    this.addSql(`alter table "payments" add column "three_ds_redirect" jsonb null`);
  }
}
