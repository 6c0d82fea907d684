import { Migration } from '@mikro-orm/migrations';

/** An acquirer notification a finance admin looked at and set aside (with a reason, audited) is `dismissed`: no longer listed as a case. */
export class Migration20261204010000_notification_dismissal extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "adyen_notifications" drop constraint "adyen_notifications_status_check",
      add constraint "adyen_notifications_status_check" check ("status" in ('received', 'waiting', 'applied', 'flagged', 'rejected', 'dismissed'))`);
  }
}
