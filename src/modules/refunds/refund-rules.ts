import { statesOf } from '../../platform/lifecycle/lifecycle';
import { REFUND_LIFECYCLE } from './refund.lifecycle';
import { domainError } from '../../shared/errors';

/**
 * The refund states that hold part of the payment's amount: asked for, on its way, or carried out. A
 * rejected, failed or reversed refund gives its amount back (the final states of the refund table).
 */
export const AMOUNT_HOLDING_STATUSES: readonly string[] = statesOf(REFUND_LIFECYCLE).filter((state) => !REFUND_LIFECYCLE.states[state].final);

/** What remains refundable of a payment of `paid` cents, given its refunds. */
export function refundableRemaining(paid: number, refunds: readonly { amount: number; status: string }[]): number {
  const held = refunds.filter((refund) => AMOUNT_HOLDING_STATUSES.includes(refund.status)).reduce((sum, refund) => sum + refund.amount, 0);
  return Math.max(0, paid - held);
}

/**
 * The amount of a new refund request: the whole remaining amount when none is given, else a whole number of
 * cents from 1 up to what remains. The fee is never returned, whatever the amount (docs/admin.md, "Refunds").
 */
export function refundAmountOf(requested: number | null | undefined, remaining: number): number {
  if (requested === null || requested === undefined) {
    if (remaining === 0) throw domainError('REFUND_EXCEEDS_REMAINING', 0);
    return remaining;
  }
  if (!Number.isSafeInteger(requested) || requested < 1) throw domainError('REFUND_AMOUNT_INVALID');
  if (requested > remaining) throw domainError('REFUND_EXCEEDS_REMAINING', remaining);
  return requested;
}

/** Whether the refunds carried out add up to the whole payment: then the payment itself is `refunded`. */
export function fullyRefunded(paid: number, refundedAmounts: readonly number[]): boolean {
  return refundedAmounts.reduce((sum, amount) => sum + amount, 0) >= paid;
}
