import { Migration } from '@mikro-orm/migrations';

/**
 * Partial refunds (docs/admin.md, "Refunds"): a payment may have several refunds, open at once, as long as
 * together they stay within its amount. The one-open-request index goes; a trigger holds the sum instead,
 * taking the payment's row lock first so two requests committing at once cannot both pass. Requests that are
 * rejected, failed or reversed give their amount back.
 */
export class Migration20261129040000_partial_refunds extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index "refunds_one_open_per_payment"`);
    this.addSql(`alter table "refunds" add constraint "refunds_amount_positive" check ("amount" > 0)`);
    this.addSql(`create function "refunds_within_payment"() returns trigger language plpgsql as $$
      declare
        paid bigint;
        asked bigint;
      begin
        select "amount" into paid from "payments" where "id" = new."payment_id" for update;
        select coalesce(sum("amount"), 0) into asked from "refunds"
          where "payment_id" = new."payment_id" and "status" in ('requested', 'approved', 'processing', 'refunded');
        if asked > paid then
          raise exception 'refunds of payment % exceed its amount (% > %)', new."payment_id", asked, paid using errcode = 'check_violation', constraint = 'refunds_within_payment';
        end if;
        return new;
      end $$`);
    this.addSql(`create constraint trigger "refunds_within_payment" after insert or update of "amount", "status" on "refunds"
      deferrable initially immediate for each row execute function "refunds_within_payment"()`);
  }
}
