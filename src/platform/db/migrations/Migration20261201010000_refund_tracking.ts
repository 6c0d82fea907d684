import { Migration } from '@mikro-orm/migrations';

/**
 * The customer's refund tracking page (`/refunds/<token>`, src/modules/refunds/refund-tracking.ts):
 * - `refunds.tracking_token_hash`: the SHA-256 (hex) of the token in the link mailed to the customer; the token
 *   itself is never stored on the refund. Unique, so a token names one refund;
 * - `refunds.failed_at` and `refunds.reversed_at`: when the refund failed or was reversed, shown on the page
 *   (the other stages already have their time: created, reviewed, claimed, refunded).
 */
export class Migration20261201010000_refund_tracking extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "refunds"
      add column "tracking_token_hash" text null constraint "refunds_tracking_token_hash_format" check ("tracking_token_hash" ~ '^[0-9a-f]{64}$'),
      add column "failed_at" timestamptz null,
      add column "reversed_at" timestamptz null`);
    this.addSql(`create unique index "refunds_tracking_token_hash_unique" on "refunds" ("tracking_token_hash") where "tracking_token_hash" is not null`);
  }
}
