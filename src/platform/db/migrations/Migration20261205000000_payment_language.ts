import { Migration } from '@mikro-orm/migrations';

/**
 * The language a payment's customer reads (the payments module's, through its checkout): chosen on the checkout
 * page or sent with the card, and used for the receipt and refund mails and the refund page whoever sends them
 * later. Null for payments paid before languages (their mails are in English). A tag such as `de` or `pt-BR`; the
 * code holds the list of languages, so adding one needs no migration.
 */
export class Migration20261205000000_payment_language extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "payments" add column "language" text null
      constraint "payments_language_tag" check ("language" ~ '^[a-z]{2,3}(-[A-Z]{2})?$')`);
  }
}
