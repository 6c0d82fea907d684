import { PaymentStatus } from '../payments';
import { DISPUTE_LIFECYCLE } from './dispute.lifecycle';

/** Payments a dispute can be about: the card was charged. */
const DISPUTABLE: readonly PaymentStatus[] = [PaymentStatus.COMPLETED, PaymentStatus.REFUNDED];

/**
 * Why a dispute notice does not fit the payment it names, or null when it does: the issuer takes back at most
 * what was paid, in the payment's currency (the acquirer's code is upper case, ours lower case).
 */
export function disputeMismatch(payment: { id: string; status: string; amount: number; currency: string }, notice: { amount: number; currency: string }): string | null {
  if (!DISPUTABLE.includes(payment.status as PaymentStatus)) return `payment ${payment.id} is ${payment.status}: it was never charged here`;
  if (notice.currency.toLowerCase() !== payment.currency) return `currency ${notice.currency} for a payment in ${payment.currency}`;
  if (!Number.isSafeInteger(notice.amount) || notice.amount <= 0 || notice.amount > payment.amount) return `amount ${notice.amount} for a payment of ${payment.amount}`;
  return null;
}

/**
 * What the seller bears of a chargeback of `disputed` cents on a payment of `paid` cents: the disputed amount,
 * less what the seller has already given back of the payment by refunds (`givenBack`); never below zero. The
 * platform's dispute account bears the rest: the same money never leaves the seller twice.
 */
export function sellerShareOf(disputed: number, paid: number, givenBack: number): number {
  return Math.max(0, Math.min(disputed, paid - givenBack));
}

/** Whether the issuer may reverse the dispute's chargeback now: the table's `reverse` move starts from its state. */
export function chargebackReversible(status: string): boolean {
  return (DISPUTE_LIFECYCLE.moves.reverse.from as readonly string[]).includes(status);
}
