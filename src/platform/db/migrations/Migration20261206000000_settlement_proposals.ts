import { Migration } from '@mikro-orm/migrations';

/**
 * Settling by hand with four eyes: a finance admin proposes what the acquirer's records say of a payment or refund
 * left without an answer, another applies it. One open proposal per payment or refund.
 */
export class Migration20261206000000_settlement_proposals extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "settlement_proposals" (
      "id" text primary key,
      "target_type" text not null check ("target_type" in ('payment', 'refund')),
      "target_id" text not null,
      "target_status" text not null,
      "answer" text not null check ("answer" in ('authorised', 'refused', 'never_received', 'refunded', 'refund_failed')),
      "acquirer_reference" text null,
      "reason" text not null,
      "status" text not null default 'proposed' constraint "settlement_proposals_status_check" check ("status" in ('proposed', 'confirmed', 'rejected')),
      "requested_by_id" text not null references "admins" ("id"),
      "reviewed_by_id" text null references "admins" ("id"),
      "outcome" text null,
      "created_at" timestamptz not null default now(),
      "reviewed_at" timestamptz null)`);
    this.addSql(`create unique index "settlement_proposals_one_open_idx" on "settlement_proposals" ("target_id") where "status" = 'proposed'`);
    this.addSql(`create index "settlement_proposals_target_idx" on "settlement_proposals" ("target_id", "created_at" desc)`);
  }
}
