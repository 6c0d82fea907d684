import type { EntityManager } from '@mikro-orm/postgresql';
import { domainError } from '../shared/errors';
import { PAYOUT_ACCOUNT_HOLDER_MAX_LENGTH } from '../shared/limits';
import { Seller } from '../shops/seller.entity';

/** Where a seller's withdrawals go, as shown: the number masked to its last four characters, never whole. */
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

export const maskAccountNumber = (number: string) => `•••• ${number.slice(-4)}`;

export function maskedPayoutAccount(seller: Pick<Seller, 'payoutAccountHolder' | 'payoutAccountNumber'>): MaskedPayoutAccount | null {
  if (!seller.payoutAccountHolder || !seller.payoutAccountNumber) return null;
  return { holder: seller.payoutAccountHolder, accountNumberMasked: maskAccountNumber(seller.payoutAccountNumber) };
}

/**
 * The seller sets (or replaces) where payouts go. The whole number is kept for finance's bank transfer and
 * never answered again; what the dashboard shows afterwards is the masked form.
 */
export async function setPayoutAccount(em: EntityManager, sellerId: string, holder: string, accountNumber: string): Promise<MaskedPayoutAccount> {
  const account = { payoutAccountHolder: validHolder(holder), payoutAccountNumber: validAccountNumber(accountNumber) };
  await em.nativeUpdate(Seller, { id: sellerId }, account);
  return maskedPayoutAccount(account)!;
}
