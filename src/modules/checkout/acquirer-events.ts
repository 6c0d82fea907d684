import type { EntityManager } from '@mikro-orm/postgresql';
import { applyDisputeNotice } from '../disputes';
import { Payment, isPaymentId, PaymentStatus } from '../payments';
import type { AcquirerEvent, NotifiedMoney } from '../../platform/processor/card-processor';
import { Refund, reverseRefund, settleNotifiedRefund } from '../refunds';
import { refundSettlingDeps } from './acquirer-settling';
import { settleLookedUpPayment, type CheckoutDeps } from './checkout.service';

/** What applying an event did, for the log, the metrics and the tests. */
export type EventOutcome =
  | { effect: 'settled' | 'nothing-to-do' | 'voided' | 'moved' | 'opened' | 'acknowledged' }
  /** It did not fit what it names (amount, currency, state), or the shopper's money needs a person: kept for admins. */
  | { effect: 'flagged'; problem: string }
  /** It came before an event it follows: kept, and applied once that one is. */
  | { effect: 'waiting'; problem: string };

const done = (effect: Exclude<EventOutcome['effect'], 'flagged' | 'waiting'>): EventOutcome => ({ effect });
const flagged = (problem: string): EventOutcome => ({ effect: 'flagged', problem });

/**
 * Applies what an acquirer told us on its own (a verified notification; docs/acquirers.md), through the
 * same conditional moves as a live answer, so an event applied twice, or racing the live answer, lands once.
 * First its money is checked against what it names: an authorization or a refund must carry exactly their
 * amount and currency, a dispute at most the payment's amount in its currency. A mismatch moves nothing.
 *  - an authorization settles a payment left `processing` (completed with its journal, or failed); one the
 *    acquirer approved after we had failed it is voided at the acquirer;
 *  - a refund outcome settles a refund waiting in `processing`, and a failure after success gives the seller the
 *    money back; a reversed refund credits the seller back; either waits for a success not yet told;
 *  - a dispute step moves the dispute it names (src/modules/disputes/), in the acquirer's order, each money move by
 *    its own journal;
 *  - a cancellation the acquirer refused leaves the shopper charged for a payment that failed here: flagged for finance;
 *  - anything else is acknowledged (it is kept by the inbox).
 */
export async function applyAcquirerEvent(checkout: CheckoutDeps, em: EntityManager, event: AcquirerEvent): Promise<EventOutcome> {
  const refunds = refundSettlingDeps(checkout);
  switch (event.kind) {
    case 'authorization':
      return settleAuthorization(checkout, em, event);
    case 'refund': {
      const refund = await em.findOne(Refund, { id: event.refundId }, { populate: ['payment'], refresh: true });
      if (!refund) return done('nothing-to-do');
      const problem = exactMoneyProblem(event.money, refund.amount, refund.payment.currency);
      if (problem) return flagged(`refund ${refund.id}: ${problem}`);
      return settleNotifiedRefund(em, refunds, event.refundId, event.outcome);
    }
    case 'refund_reversed': {
      const outcome = await reverseRefund(em, refunds, event.refundId, event.money);
      if (outcome.effect === 'moved') checkout.logger.warn({ refundId: event.refundId }, 'the acquirer reversed a refund: the seller is credited back');
      return outcome;
    }
    case 'dispute': {
      if (!isPaymentId(event.paymentId)) return flagged(`a dispute for ${JSON.stringify(event.paymentId)}, which is not one of our payments`);
      const outcome = await applyDisputeNotice(em, {
        step: event.step, paymentId: event.paymentId, reference: event.reference, amount: event.money.amount, currency: event.money.currency, reason: event.reason, occurredAt: event.occurredAt,
      });
      if (outcome.effect === 'moved') checkout.logger.warn({ paymentId: event.paymentId, step: event.step, amount: event.money.amount }, 'dispute moved');
      return outcome;
    }
    case 'cancellation':
      if (!event.cancelled) return flagged(`the acquirer refused to cancel payment ${event.paymentId}: the shopper may be charged for a payment that failed here; cancel or refund it at the acquirer`);
      checkout.logger.info({ paymentId: event.paymentId }, 'the acquirer confirmed a cancellation');
      return done('acknowledged');
    default:
      return done('acknowledged');
  }
}

/** Exactly the amount and currency expected (the acquirer's code is upper case, ours lower case). */
function exactMoneyProblem(money: NotifiedMoney, amount: number, currency: string): string | null {
  if (money.currency.toLowerCase() === currency && money.amount === amount) return null;
  return `notified ${money.amount} ${money.currency}, expected ${amount} ${currency.toUpperCase()}`;
}

async function settleAuthorization(checkout: CheckoutDeps, em: EntityManager, event: Extract<AcquirerEvent, { kind: 'authorization' }>): Promise<EventOutcome> {
  const { paymentId, outcome } = event;
  if (!isPaymentId(paymentId)) return done('nothing-to-do');
  const payment = await em.findOne(Payment, { id: paymentId }, { refresh: true });
  if (!payment) return done('nothing-to-do');
  const problem = exactMoneyProblem(event.money, payment.amount, payment.currency);
  if (problem) return flagged(`payment ${paymentId}: ${problem}`);
  const settled = await settleLookedUpPayment(checkout, em, paymentId, outcome);
  if (settled !== 'lost') return done('settled');
  if (outcome.kind !== 'approved') return done('nothing-to-do');
  // Approved at the acquirer, failed here (our answer was a definite failure, or the shop stopped): release the hold.
  const now = await em.findOne(Payment, { id: paymentId }, { refresh: true });
  if (now?.status !== PaymentStatus.FAILED) return done('nothing-to-do');
  try {
    await checkout.processor.voidAuthorization({ paymentId, reference: outcome.reference });
    checkout.logger.warn({ paymentId }, 'the acquirer authorized a payment that had failed here: authorization voided');
    return done('voided');
  } catch (error) {
    checkout.logger.error({ paymentId, processorReference: outcome.reference, err: (error as Error).message }, 'authorization void failed: void it at the acquirer');
    return flagged(`the acquirer authorised payment ${paymentId}, which failed here, and voiding it failed: the shopper is charged; cancel or refund ${outcome.reference} at the acquirer`);
  }
}
