import { Migration } from '@mikro-orm/migrations';

/**
 * The mail outbox and the sellers' mail settings (src/modules/notifications/, docs/decisions/0001-mail-outbox.md):
 * - `mail_outbox`: one row per mail, written in the transaction of what it tells of (the card completion's one
 *   statement writes the receipt's). (`kind`, `subject_id`) is unique: a receipt per payment, a notice per
 *   refund, a seller notification per event, whoever writes it and however often. The row is rendered once, at
 *   its first claim (`raw_message`, with its Message-ID and Date), and every later attempt sends those bytes.
 *   Its status lives through src/modules/notifications/mail.lifecycle.ts; its check constraint lists the states, the default is the initial one.
 *   Retries stop MAIL_GIVE_UP_AFTER_MS after `retry_from` (its writing, or an admin's resend).
 * - `seller_mail_settings`: the support address receipts name (null: the account's address) and the
 *   notification topics the seller switched off (every topic is on until switched off).
 */
export class Migration20261129030000_mail_outbox extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "mail_outbox" (
      "id" text primary key,
      "kind" text not null,
      "subject_id" text not null,
      "recipient" text not null,
      "seller_id" text null,
      "shop_id" text null,
      "payment_id" text null,
      "params" jsonb not null default '{}'::jsonb,
      "status" text not null,
      "attempt_count" integer not null default 0,
      "next_attempt_at" timestamptz not null default now(),
      "retry_from" timestamptz not null default now(),
      "locked_until" timestamptz null,
      "claim_token" text null,
      "enqueued_attempt" integer null,
      "enqueued_at" timestamptz null,
      "message_id" text null,
      "subject" text null,
      "text_body" text null,
      "html_body" text null,
      "raw_message" text null,
      "last_error" text null,
      "created_at" timestamptz not null default now(),
      "last_attempt_at" timestamptz null,
      "sent_at" timestamptz null,
      "failed_at" timestamptz null,
      constraint "mail_outbox_kind_subject_unique" unique ("kind", "subject_id"))`);
    this.addSql(`alter table "mail_outbox" drop constraint if exists "mail_outbox_status_check", add constraint "mail_outbox_status_check" check ("status" in ('pending', 'sending', 'sent', 'kept', 'unknown', 'failed', 'suppressed'))`);
    this.addSql(`alter table "mail_outbox" alter column "status" set default 'pending'`);
    this.addSql(`create index "mail_outbox_due_idx" on "mail_outbox" ("next_attempt_at") where "status" in ('pending', 'sending')`);
    this.addSql(`create index "mail_outbox_status_created_idx" on "mail_outbox" ("status", "created_at")`);
    this.addSql(`create index "mail_outbox_shop_kind_idx" on "mail_outbox" ("shop_id", "kind", "created_at")`);
    this.addSql(`create index "mail_outbox_payment_idx" on "mail_outbox" ("payment_id")`);

    this.addSql(`create table "seller_mail_settings" (
      "seller_id" text primary key references "sellers" ("id"),
      "support_email" text null,
      "muted" text[] not null default '{}',
      "updated_at" timestamptz not null default now())`);
  }
}
