import { cardBrandOf, type CardBrandRule } from '../../src/modules/checkout/card-brands';
import { isCardNumber, isUnexpired, SECURITY_CODE } from '../../src/modules/checkout/card-predicates';
import type { MessageKey } from './messages';

/**
 * The checks the page runs before anything is sent: the server's own rules (src/modules/checkout/card-predicates.ts),
 * each problem as the key of its message for the customer. They only spare a round trip; the server checks again.
 */

export type Field = 'number' | 'expiry' | 'securityCode';

export interface CardEntry {
  number: string;
  expiry: string;
  securityCode: string;
  nameOnCard: string;
}

export interface CheckedCard {
  number: string;
  expMonth: number;
  expYear: number;
  securityCode: string;
  nameOnCard: string | null;
}

export type FieldErrors = Partial<Record<Field, MessageKey>>;

export type CardCheck = { ok: true; card: CheckedCard } | { ok: false; errors: FieldErrors };

/** `MM/YY`, also `M/YY`, `MMYY` (phone keypads have no slash) and `MM/YYYY`. */
export function parseExpiry(text: string): { month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!match) return null;
  const month = Number(match[1]);
  const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  return month >= 1 && month <= 12 ? { month, year } : null;
}

export function checkCard(entry: CardEntry, now = new Date()): CardCheck {
  const errors: FieldErrors = {};
  const number = entry.number.replace(/[\s-]/g, '');
  if (number === '') errors.number = 'checkout.field.numberMissing';
  else if (!isCardNumber(number)) errors.number = 'checkout.field.numberInvalid';

  const expiry = parseExpiry(entry.expiry);
  if (entry.expiry.trim() === '') errors.expiry = 'checkout.field.expiryMissing';
  else if (!expiry) errors.expiry = 'checkout.field.expiryInvalid';
  else if (!isUnexpired(expiry.month, expiry.year, now)) errors.expiry = 'checkout.field.expiryPast';

  // A brand we know has codes of one length (American Express 4, on the front; the others 3, on the back): the
  // page asks for exactly that. The server takes 3 or 4 digits from any card.
  const securityCode = entry.securityCode.trim();
  const brand = cardBrandOf(number);
  if (!SECURITY_CODE.test(securityCode) || (brand && securityCode.length !== brand.securityCode.digits)) errors.securityCode = securityCodeError(brand);

  if (Object.keys(errors).length > 0 || !expiry) return { ok: false, errors };
  const nameOnCard = entry.nameOnCard.trim();
  return {
    ok: true,
    card: { number, expMonth: expiry.month, expYear: expiry.year, securityCode, nameOnCard: nameOnCard === '' ? null : nameOnCard },
  };
}

/** What the security code field asks for: the brand's length and place, or 3 or 4 digits while the brand is unknown. */
export function securityCodeHint(brand: CardBrandRule | null): MessageKey {
  if (!brand) return 'checkout.securityCodeHint';
  return brand.securityCode.on === 'front' ? 'checkout.securityCodeHintFront' : 'checkout.securityCodeHintBack';
}

function securityCodeError(brand: CardBrandRule | null): MessageKey {
  if (!brand) return 'checkout.field.securityCode';
  return brand.securityCode.on === 'front' ? 'checkout.field.securityCodeFront' : 'checkout.field.securityCodeBack';
}
