import type { EntityManager } from '@mikro-orm/postgresql';
import { bookChargeback } from '../ledger/ledger.service';
import { recordChargeback } from './chargebacks';
import { Payment } from '../payments/payment.entity';
import { isPaymentId } from '../payments/payment-rules';
import { PaymentStatus } from '../payments/payment-status';
import type { AcquirerEvent } from '../processor/card-processor';
import { settleNotifiedRefund, type RefundExecutionDeps } from '../refunds/refund.service';
import { settleLookedUpPayment, type CheckoutDeps } from './checkout.service';

/** What applying an event did, for the log and the tests. */
export type EventEffect = 'settled' | 'nothing-to-do' | 'voided' | 'booked' | 'acknowledged';

/**
 * Applies what an acquirer told us on its own (a verified notification; docs/acquirers.md), through the
 * same conditional moves as a live answer, so an event applied twice, or racing the live answer, lands once:
 *  - an authorization settles a payment left `processing` (completed with its journal, or failed); one the
 *    acquirer approved after we had failed it is voided at the acquirer;
 *  - a refund outcome settles a refund waiting in `processing`;
 *  - a chargeback is recorded and taken from the seller by its own journal (once per payment);
 *  - anything else is acknowledged (it is kept by the transport).
 */
export async function applyAcquirerEvent(checkout: CheckoutDeps, em: EntityManager, event: AcquirerEvent): Promise<EventEffect> {
  const refunds: RefundExecutionDeps = { processor: checkout.processor, logger: checkout.logger, processingTimeoutMs: 0, baseUrl: checkout.baseUrl };
  switch (event.kind) {
    case 'authorization':
      return settleAuthorization(checkout, em, event.paymentId, event.outcome);
    case 'refund':
      return (await settleNotifiedRefund(em, refunds, event.refundId, event.outcome)) === 'not-claimed' ? 'nothing-to-do' : 'settled';
    case 'chargeback':
      return bookChargebackOnce(checkout, em, event);
    case 'cancellation':
      checkout.logger.info({ paymentId: event.paymentId, cancelled: event.cancelled }, 'the acquirer confirmed a cancellation');
      return 'acknowledged';
    default:
      return 'acknowledged';
  }
}

async function settleAuthorization(checkout: CheckoutDeps, em: EntityManager, paymentId: string, outcome: Extract<AcquirerEvent, { kind: 'authorization' }>['outcome']): Promise<EventEffect> {
  if (!isPaymentId(paymentId)) return 'nothing-to-do';
  const settled = await settleLookedUpPayment(checkout, em, paymentId, outcome);
  if (settled !== 'lost') return 'settled';
  if (outcome.kind !== 'approved') return 'nothing-to-do';
  // Approved at the acquirer, failed here (our answer was a definite failure, or the shop stopped): release the hold.
  const payment = await em.findOne(Payment, { id: paymentId }, { refresh: true });
  if (payment?.status !== PaymentStatus.FAILED) return 'nothing-to-do';
  try {
    await checkout.processor.voidAuthorization({ paymentId, reference: outcome.reference });
    checkout.logger.warn({ paymentId }, 'the acquirer authorized a payment that had failed here: authorization voided');
    return 'voided';
  } catch (error) {
    checkout.logger.error({ paymentId, processorReference: outcome.reference, err: (error as Error).message }, 'authorization void failed: void it at the acquirer');
    return 'nothing-to-do';
  }
}

/** The payments a chargeback can be booked against: the card was charged. */
const CHARGEABLE_BACK: readonly PaymentStatus[] = [PaymentStatus.COMPLETED, PaymentStatus.REFUNDED];

/**
 * One chargeback per payment (the `chargebacks` unique index and the ledger's (payment, kind, account) index):
 * a second CHARGEBACK for the same payment (a second dispute cycle) is kept by the transport, not booked.
 */
async function bookChargebackOnce(checkout: CheckoutDeps, em: EntityManager, event: Extract<AcquirerEvent, { kind: 'chargeback' }>): Promise<EventEffect> {
  if (!isPaymentId(event.paymentId) || event.amount <= 0) return 'nothing-to-do';
  const booked = await em.transactional(async (tx) => {
    const payment = await tx.findOne(Payment, { id: event.paymentId }, { populate: ['shop', 'shop.seller'], refresh: true });
    if (!payment || !CHARGEABLE_BACK.includes(payment.status)) return false;
    const amount = Math.min(event.amount, payment.amount);
    const recorded = await recordChargeback(tx, { paymentId: payment.id, acquirerReference: event.reference, amount, currency: payment.currency, reason: event.reason });
    if (!recorded) return false;
    bookChargeback(tx, payment, payment.shop.seller, amount);
    return true;
  });
  if (booked) checkout.logger.warn({ paymentId: event.paymentId, amount: event.amount, reason: event.reason }, 'chargeback: taken from the seller balance');
  return booked ? 'booked' : 'nothing-to-do';
}
