import type { EntityManager } from '@mikro-orm/postgresql';
import { domainError } from '../../shared/errors';
import { NOTIFICATION_TOPICS, type NotificationTopic } from './mail-kinds';
import { newChangeId } from './mail-outbox';
import { saveMailSettings, storedMailSettings, type StoredMailSettings } from './mail-settings-store';
import { queueSellerNotice } from './mail-store';
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

async function settingsRow(em: EntityManager, sellerId: string, lock = false): Promise<StoredMailSettings> {
  const row = await storedMailSettings(em, sellerId, lock);
  if (!row) throw domainError('SELLER_NOT_FOUND');
  return row;
}

const settingsOf = (row: StoredMailSettings): MailSettings => ({
  supportEmail: row.supportEmail ?? row.email,
  supportEmailSet: row.supportEmail !== null,
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
    await saveMailSettings(tx, sellerId, address, muted);
    const after: StoredMailSettings = { email: before.email, supportEmail: address, muted };
    if ((before.supportEmail ?? before.email) !== (address ?? before.email)) {
      await queueSellerNotice(tx, { kind: 'support-email-changed', sellerId, subjectId: newChangeId(), params: { address: address ?? before.email } });
    }
    return settingsOf(after);
  });
}
