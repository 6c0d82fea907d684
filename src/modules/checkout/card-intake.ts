import { domainError } from '../../shared/errors';
import type { CardDetails } from '../../platform/processor/card-processor';
import { cardBrandOf } from './card-brands';
import { isCardNumber, isUnexpired, SECURITY_CODE } from './card-predicates';

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
  if (!isCardNumber(number)) throw domainError('CARD_NUMBER_INVALID');
  if (!isUnexpired(card.expMonth, card.expYear, now)) throw domainError('CARD_EXPIRY_INVALID');
  if (!SECURITY_CODE.test(card.securityCode)) throw domainError('CARD_SECURITY_CODE_INVALID');
  return { ...card, number };
}

export function summarizeCard(card: CardDetails): CardSummary {
  return { brand: brandOf(card.number), last4: card.number.slice(-4), expMonth: card.expMonth, expYear: card.expYear };
}

/** The brand kept with the payment: the one the checkout page showed while the number was typed (card-brands.ts). */
export function brandOf(number: string): string {
  return cardBrandOf(number)?.brand ?? 'unknown';
}
