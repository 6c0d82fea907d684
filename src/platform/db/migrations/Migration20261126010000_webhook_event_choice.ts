import { Migration } from '@mikro-orm/migrations';

/**
 * The events each shop receives by webhook (docs/reference.md, "Choosing events"). `payment.completed` is always sent (the
 * spec documents it); this column lists the others the shop asked for, none by default.
 */
export class Migration20261126010000_webhook_event_choice extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "shops" add column "webhook_events" text[] not null default '{}'`);
  }
}
