import { Migration } from '@mikro-orm/migrations';

/**
 * `payments.three_ds_return_hash`: the SHA-256 (hex) of the single-use token carried by the 3-D Secure return
 * address sent to the acquirer (docs/acquirers.md, "3-D Secure without third-party scripts"). Written with the
 * open challenge, cleared when its answer is taken. The token itself is never stored.
 */
export class Migration20261128003000_three_ds_return_token extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "payments" add column "three_ds_return_hash" text null
      constraint "payments_three_ds_return_hash_format" check ("three_ds_return_hash" ~ '^[0-9a-f]{64}$')`);
  }
}
