import type { EntityManager } from '@mikro-orm/postgresql';
import { columnValues, replaceColumnValue } from '../../platform/db/column-rewrite';
import { backfillPayoutAccountLast4 } from './payout-number-backfill-store';
import { keyId, type SecretBox } from './secret-box';

/** Every column whose values go through the secret box (src/modules/identity/secret-box.ts). */
export const SEALED_COLUMNS = [
  { table: 'sellers', column: 'totp_secret' },
  { table: 'admins', column: 'totp_secret' },
  { table: 'sellers', column: 'payout_account_number' },
  { table: 'shops', column: 'webhook_secret' },
  // Account mails' words in the mail outbox (src/modules/notifications/account-mail.ts): their links are capabilities.
  { table: 'mail_outbox', column: 'sealed_body' },
] as const;

export interface ReencryptionReport {
  /** The id of the key every secret is now sealed with (the current ACCOUNT_SECRETS_KEY). */
  key_id: string;
  /** Per `table.column`: values sealed again now (plain ones, older keys' and the first format's). */
  resealed: Record<string, number>;
  /** Per `table.column`: values already sealed with the current key, left as they are. */
  current: Record<string, number>;
  /** Values that could not be opened (a key no longer configured): left as they are, named here. */
  failed: { table: string; column: string; id: string; problem: string }[];
}

/**
 * `npm run cli -- reencrypt-secrets`: seals every stored secret again with the current ACCOUNT_SECRETS_KEY. A
 * value stored as it is (before any key was set) is sealed, a value of an older key (ACCOUNT_SECRETS_OLD_KEYS)
 * or of the first format is opened and sealed with the current one, and a value already sealed with the
 * current key is not touched: running it twice changes nothing the second time. Each value moves in one UPDATE
 * conditional on the value read, so a change made meanwhile (a new enrolment, a new payout account) is kept.
 * Run it once every instance has the new key (an instance still on the old configuration could not open what
 * it writes), then drop the old key from ACCOUNT_SECRETS_OLD_KEYS.
 */
export async function reencryptSecrets(em: EntityManager, box: SecretBox, currentKeyHex: string): Promise<ReencryptionReport> {
  const report: ReencryptionReport = { key_id: keyId(currentKeyHex), resealed: {}, current: {}, failed: [] };
  // Numbers stored before only their last four were kept apart get that column now, while they are still plain.
  await backfillPayoutAccountLast4(em);
  for (const { table, column } of SEALED_COLUMNS) {
    const name = `${table}.${column}`;
    report.resealed[name] = 0;
    report.current[name] = 0;
    for (const { id, value } of await columnValues(em, table, column)) {
      if (!box.stale(value)) {
        report.current[name] += 1;
        continue;
      }
      let plain: string;
      try {
        plain = box.open(value);
      } catch (error) {
        report.failed.push({ table, column, id, problem: (error as Error).message });
        continue;
      }
      if (await replaceColumnValue(em, table, column, id, value, box.seal(plain))) report.resealed[name] += 1;
    }
  }
  return report;
}
