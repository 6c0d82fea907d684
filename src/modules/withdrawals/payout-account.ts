import type { EntityManager } from '@mikro-orm/postgresql';
import { domainError } from '../../shared/errors';
import { PAYOUT_ACCOUNT_HOLDER_MAX_LENGTH } from '../../shared/limits';
import { isSealed, type SecretBox, type Seller, setSellerPayoutAccount } from '../identity';
import { noticePayoutAccountChanged } from '../notifications';

/** Where a seller's withdrawals go, as shown: the number masked to its last four characters, never whole (finance alone reads it whole). */
export interface MaskedPayoutAccount {
  holder: string;
  accountNumberMasked: string;
}

/** Spaces and dashes dropped, upper case (an IBAN as printed becomes its compact form): letters and digits, 6 to 34 (an IBAN's length at most). */
export function validAccountNumber(text: string): string {
  const compact = (text ?? '').replace(/[\s-]/g, '').toUpperCase();
  if (!/^[A-Z0-9]{6,34}$/.test(compact)) throw domainError('PAYOUT_ACCOUNT_NUMBER_INVALID');
  return compact;
}

export function validHolder(text: string): string {
  const holder = (text ?? '').trim();
  if (holder === '' || [...holder].length > PAYOUT_ACCOUNT_HOLDER_MAX_LENGTH) throw domainError('PAYOUT_ACCOUNT_HOLDER_INVALID');
  return holder;
}

export const maskAccountNumber = (lastFour: string) => `•••• ${lastFour.slice(-4)}`;

type StoredPayoutAccount = Pick<Seller, 'payoutAccountHolder' | 'payoutAccountNumber'> & Partial<Pick<Seller, 'payoutAccountLast4'>>;

/** The masked form, from the last four kept apart (a number stored before sealing existed is masked as it is). */
export function maskedPayoutAccount(seller: StoredPayoutAccount): MaskedPayoutAccount | null {
  if (!seller.payoutAccountHolder || !seller.payoutAccountNumber) return null;
  const lastFour = seller.payoutAccountLast4 ?? (isSealed(seller.payoutAccountNumber) ? '' : seller.payoutAccountNumber);
  return { holder: seller.payoutAccountHolder, accountNumberMasked: maskAccountNumber(lastFour) };
}

/** The whole number, opened from its sealed form: finance's bank transfer (PayoutAccount.accountNumber), nothing else. */
export function payoutAccountNumber(box: SecretBox, seller: StoredPayoutAccount): string | null {
  return seller.payoutAccountNumber ? box.open(seller.payoutAccountNumber) : null;
}

/** Checks what the seller typed: holder and number in their stored form, the number not yet sealed. */
export function validPayoutAccount(holder: string, accountNumber: string): { holder: string; accountNumber: string } {
  return { holder: validHolder(holder), accountNumber: validAccountNumber(accountNumber) };
}

/**
 * The seller sets (or replaces) where payouts go. The whole number is sealed with ACCOUNT_SECRETS_KEY
 * (src/modules/identity/secret-box.ts) for finance's bank transfer; only its last four stay readable, for the masked
 * form the dashboard shows afterwards. `confirm` runs after the check and before the change (re-authentication).
 */
export async function setPayoutAccount(
  em: EntityManager,
  box: SecretBox,
  sellerId: string,
  holder: string,
  accountNumber: string,
  confirm?: () => Promise<void>,
): Promise<MaskedPayoutAccount> {
  const valid = validPayoutAccount(holder, accountNumber);
  await confirm?.();
  const account = { payoutAccountHolder: valid.holder, payoutAccountNumber: box.seal(valid.accountNumber), payoutAccountLast4: valid.accountNumber.slice(-4) };
  // The seller is told of the change (the last four only) in the same transaction (src/modules/notifications/).
  await em.transactional(async (tx) => {
    await setSellerPayoutAccount(tx, sellerId, account);
    await noticePayoutAccountChanged(tx, sellerId, account.payoutAccountLast4);
  });
  return maskedPayoutAccount(account)!;
}
