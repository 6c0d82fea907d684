import { Migration } from '@mikro-orm/migrations';

/**
 * When an unverified account was last taken over from its reset link (accounts.service.ts, reclaimAccount): a new
 * shop keeps the webhook settings only of a shop created after it, so what the squatter set never comes back.
 */
export class Migration20261210000000_seller_reclaimed_at extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "sellers" add column "reclaimed_at" timestamptz null`);
  }
}
