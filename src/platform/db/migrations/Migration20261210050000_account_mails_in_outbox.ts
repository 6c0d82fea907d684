import { Migration } from '@mikro-orm/migrations';

/**
 * Account mails (verification, invitation, password reset …) go through the mail outbox too
 * (src/modules/notifications/account-mail.ts). Their links are capabilities, so their words are kept in
 * `sealed_body` only, sealed with ACCOUNT_SECRETS_KEY (the secret box), and deleted once the mail is sent;
 * `text_body`, `html_body` and `raw_message` stay empty for them.
 */
export class Migration20261210050000_account_mails_in_outbox extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "mail_outbox" add column "sealed_body" text null`);
  }
}
