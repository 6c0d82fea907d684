import type { EntityManager } from '@mikro-orm/postgresql';
import { isPaymentId, Payment, PaymentStatus } from '../payments';
import { Refund, RefundStatus, settleLookedUpRefund, type RefundExecutionDeps } from '../refunds';
import { reweighDisputes } from '../disputes';
import { domainError } from '../../shared/errors';
import { settleLookedUpPayment, type CheckoutDeps } from './checkout.service';

/**
 * What settling a refund from the acquirer's answer needs (a notification, a look-up): the checkout's acquirer, and
 * disputes' re-weighing. Such a refund is never claimed for sending, so no claim can be stale.
 */
export function refundSettlingDeps(checkout: CheckoutDeps): RefundExecutionDeps {
  return { processor: checkout.processor, logger: checkout.logger, processingTimeoutMs: 0, baseUrl: checkout.baseUrl, reweighDisputes };
}

/** What the acquirer answered of a payment or refund, and what that settled here. */
export interface SettledByAcquirer {
  found: string;
  outcome: string;
}

/**
 * A finance admin's "ask the acquirer now" (docs/admin.md, "Settling by hand"): the look-up reconciliation makes on its
 * schedule, for one payment or refund left `processing`, settled through the same moves. Never books anything the
 * acquirer did not say; an acquirer that cannot say answers as reconciliation's would (the error is the admin's to read).
 */
export async function settleWithAcquirerNow(checkout: CheckoutDeps, em: EntityManager, id: string): Promise<SettledByAcquirer> {
  if (isPaymentId(id)) {
    const payment = await em.findOne(Payment, { id }, { refresh: true });
    if (!payment) throw domainError('PAYMENT_NOT_FOUND');
    if (payment.status !== PaymentStatus.PENDING) return { found: 'not asked', outcome: `already ${payment.status}` };
    const found = await askAcquirer(() => checkout.processor.lookupAuthorization(id));
    if (!found) return STILL_UNKNOWN;
    return { found: found.kind, outcome: await settleLookedUpPayment(checkout, em.fork(), id, found) };
  }
  const refund = await em.findOne(Refund, { id }, { refresh: true });
  if (!refund) throw domainError('REFUND_NOT_FOUND');
  if (refund.status !== RefundStatus.PROCESSING) return { found: 'not asked', outcome: `already ${refund.status}` };
  const found = await askAcquirer(() => checkout.processor.lookupRefund(id));
  if (!found) return STILL_UNKNOWN;
  return { found: found.kind, outcome: await settleLookedUpRefund(em.fork(), refundSettlingDeps(checkout), id, found) };
}

/** The acquirer could not say (unreachable, or no look-up and no notification yet, as with Adyen's v71): nothing settles. */
const STILL_UNKNOWN: SettledByAcquirer = { found: 'unknown', outcome: 'nothing: the acquirer could not say; compare with its records' };

async function askAcquirer<T>(lookUp: () => Promise<T>): Promise<T | null> {
  try {
    return await lookUp();
  } catch {
    return null;
  }
}
