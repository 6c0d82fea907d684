import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { moveAuditor, SYSTEM_ACTOR } from '../audit';
import { applyMove } from '../../platform/lifecycle/apply-move';
import { enumOf } from '../../platform/lifecycle/lifecycle';
import { PAYMENT_LIFECYCLE } from '../payments/payment.lifecycle';
import { REFUND_LIFECYCLE } from './refund.lifecycle';
import { Payment } from '../payments';
import { Refund } from './refund.entity';

/** The reason every automatic refund of a live test carries (the seller reads it on the payment's page). */
export const LIVE_TEST_REFUND_REASON = 'Live test: refunded automatically, fee waived';

const COMPLETED = enumOf(PAYMENT_LIFECYCLE.states).COMPLETED;

/**
 * Records a completed live test's refund of its whole amount and approves it, in one transaction under the
 * payment's row lock (the refund table's `approveAutomatically`, audited with the service as the actor): no
 * admin records it and nobody reviews it, since the money can only go back to the card it came from. Answers
 * the refund's id for the refund jobs, or null when there is nothing to do: not a live test, not completed,
 * or a refund already recorded (whoever came first: the completion's hand-off or the sweep). A refund that
 * failed at the acquirer is not tried again here: an admin records a new one (docs/admin.md, "Refunds").
 */
export async function approveLiveTestRefund(em: EntityManager, paymentId: string): Promise<string | null> {
  return em.transactional(async (tx) => {
    const payment = await tx.findOne(Payment, { id: paymentId, test: true }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!payment || payment.status !== COMPLETED) return null;
    if ((await tx.count(Refund, { payment: paymentId })) > 0) return null;
    const refund = tx.create(Refund, { payment: paymentId, amount: payment.amount, reason: LIVE_TEST_REFUND_REASON, requestedBy: null });
    await tx.flush();
    const approved = await applyMove(tx, REFUND_LIFECYCLE, Refund, 'approveAutomatically', {
      id: refund.id,
      changes: { reviewedAt: new Date() },
      effects: { audit: { by: moveAuditor(SYSTEM_ACTOR), reason: LIVE_TEST_REFUND_REASON, details: () => ({ paymentId, amount: payment.amount }) } },
    });
    if (!approved) throw new Error(`live test refund ${refund.id} was not approved`);
    return refund.id;
  });
}
