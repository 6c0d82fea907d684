import type { EntityManager } from '@mikro-orm/postgresql';
import { domainError } from '../../shared/errors';
import { NOTIFICATION_TOPICS, type NotificationTopic } from './mail-kinds';
import { newChangeId, queueSellerNotice } from './mail-outbox';
import { mailableAddress } from './mail-text';

/**
 * A seller's mail settings (dashboard, Account screen): the support address that receipts and refund notices give
 * customers (and put in Reply-To), the account's own address until the seller sets one; and which notification
 * topics are on (all, until switched off).
 */
export interface MailSettings {
  /** The address customers are told to write to: the one set, or the account's. */
  supportEmail: string;
  /** Whether the seller set it (false: the account's address is used). */
  supportEmailSet: boolean;
  enabledTopics: NotificationTopic[];
}

interface SettingsRow {
  email: string;
  support_email: string | null;
  muted: string[] | null;
}

async function settingsRow(em: EntityManager, sellerId: string, lock = false): Promise<SettingsRow> {
  const [row] = await em.execute<SettingsRow[]>(
    `select s."email", m."support_email", m."muted"
       from "sellers" s left join "seller_mail_settings" m on m."seller_id" = s."id"
      where s."id" = ?${lock ? ' for update of s' : ''}`,
    [sellerId],
  );
  if (!row) throw domainError('SELLER_NOT_FOUND');
  return row;
}

const settingsOf = (row: SettingsRow): MailSettings => ({
  supportEmail: row.support_email ?? row.email,
  supportEmailSet: row.support_email !== null,
  enabledTopics: NOTIFICATION_TOPICS.filter((topic) => !(row.muted ?? []).includes(topic)),
});

export async function mailSettingsOf(em: EntityManager, sellerId: string): Promise<MailSettings> {
  return settingsOf(await settingsRow(em, sellerId));
}

/** A support address as typed: trimmed; empty means "use my account's address". */
export function validSupportEmail(text: string | null | undefined): string | null {
  const address = String(text ?? '').trim();
  if (address === '') return null;
  if (!mailableAddress(address)) throw domainError('SUPPORT_EMAIL_INVALID');
  return address;
}

/**
 * Sets the support address (null or '': the account's) and the topics that stay on; every other topic is off.
 * A change of the support address is itself a notification (account changes), in the same transaction, to the
 * account's address: it decides where customers' questions go.
 */
export async function setMailSettings(em: EntityManager, sellerId: string, supportEmail: string | null | undefined, enabledTopics: readonly NotificationTopic[]): Promise<MailSettings> {
  const address = validSupportEmail(supportEmail);
  const muted = NOTIFICATION_TOPICS.filter((topic) => !enabledTopics.includes(topic));
  return em.transactional(async (tx) => {
    const before = await settingsRow(tx, sellerId, true);
    await tx.execute(
      `insert into "seller_mail_settings" ("seller_id", "support_email", "muted", "updated_at") values (?, ?, ?::text[], now())
       on conflict ("seller_id") do update set "support_email" = excluded."support_email", "muted" = excluded."muted", "updated_at" = excluded."updated_at"`,
      // A PostgreSQL array literal: the topics are our own identifiers (the driver would spread a JS array into a list).
      [sellerId, address, `{${muted.join(',')}}`],
    );
    const after: SettingsRow = { email: before.email, support_email: address, muted };
    if ((before.support_email ?? before.email) !== (address ?? before.email)) {
      await queueSellerNotice(tx, { kind: 'support-email-changed', sellerId, subjectId: newChangeId(), params: { address: address ?? before.email } });
    }
    return settingsOf(after);
  });
}
