import { domainError } from '../shared/errors';

/** The card as the customer typed it. Lives for one authorization call; never stored or logged. */
export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  securityCode: string;
  nameOnCard?: string | null;
}

/** What may be kept of a card (PCI DSS allows brand, last four and expiry). */
export interface CardSummary {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** Checks the card the way the page does, so a hand-made request gets the same answer; returns the digits. */
export function validCard(card: CardDetails, now = new Date()): CardDetails {
  const number = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !passesLuhn(number)) throw domainError('CARD_NUMBER_INVALID');
  if (!isUnexpired(card.expMonth, card.expYear, now)) throw domainError('CARD_EXPIRY_INVALID');
  if (!/^\d{3,4}$/.test(card.securityCode)) throw domainError('CARD_SECURITY_CODE_INVALID');
  return { ...card, number };
}

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** A card is valid through the last day of its expiry month. */
export function isUnexpired(month: number, year: number, now = new Date()): boolean {
  if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(year) || year < 2000 || year > 2100) return false;
  return Date.UTC(year, month, 1) > now.getTime();
}

export function summarizeCard(card: CardDetails): CardSummary {
  return { brand: brandOf(card.number), last4: card.number.slice(-4), expMonth: card.expMonth, expYear: card.expYear };
}

export function brandOf(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2(2[2-9][1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720))/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(number)) return 'discover';
  return 'unknown';
}
