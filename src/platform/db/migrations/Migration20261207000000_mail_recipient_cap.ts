import { Migration } from '@mikro-orm/migrations';

/**
 * Customer mails are capped per mailbox and day (src/modules/notifications/mail-delivery.ts): a customer mail past
 * the cap is `suppressed`, not sent. `recipient_key` is the mailbox its address reaches (mailboxKey), written when a
 * customer mail is first claimed and counted then; the index serves that count.
 */
export class Migration20261207000000_mail_recipient_cap extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "mail_outbox" drop constraint "mail_outbox_status_check",
      add constraint "mail_outbox_status_check" check ("status" in ('pending', 'sending', 'sent', 'kept', 'unknown', 'failed', 'suppressed'))`);
    this.addSql(`alter table "mail_outbox" add column "recipient_key" text null`);
    this.addSql(`create index "mail_outbox_recipient_key_idx" on "mail_outbox" ("recipient_key", "created_at") where "recipient_key" is not null`);
  }
}
