import { Migration } from '@mikro-orm/migrations';

/**
 * Per-seller checkpoints of the balance sums (docs/checkout.md, "Balances in constant time"): a seller's figures are the last checkpoint
 * plus the entries after it, so reading them costs the same at a million entries as at ten. Append-only, like
 * the ledger: a new checkpoint is a new row, nothing is ever edited, and no completion ever waits on one.
 * Each row sums the seller's `seller_balance` entries with id <= `through_entry_id`; check-ledger verifies them.
 */
export class Migration20261127160000_ledger_checkpoints extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "ledger_checkpoints" (
      "seller_id" text not null references "sellers" ("id"),
      "through_entry_id" bigint not null,
      "available" bigint not null,
      "gross" bigint not null,
      "fees" bigint not null,
      "refunds" bigint not null,
      "created_at" timestamptz not null default now(),
      primary key ("seller_id", "through_entry_id"))`);
    this.addSql(`create function "ledger_checkpoints_refuse_change"() returns trigger language plpgsql as $$
      begin raise exception 'ledger_checkpoints is append-only: % refused', tg_op; end $$`);
    this.addSql(`create trigger "ledger_checkpoints_append_only" before update or delete on "ledger_checkpoints"
      for each row execute function "ledger_checkpoints_refuse_change"()`);
    this.addSql(`create trigger "ledger_checkpoints_no_truncate" before truncate on "ledger_checkpoints"
      for each statement execute function "ledger_checkpoints_refuse_change"()`);
  }
}
