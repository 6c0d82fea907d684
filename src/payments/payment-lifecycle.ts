import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { Payment } from './payment.entity';
import { PaymentStatus } from './payment-status';

/** What can happen to a payment (spec, States and transitions). */
export type PaymentTrigger = 'complete' | 'fail' | 'refund';

/**
 * The payment state machine as data: from each status, the triggers allowed and where they lead.
 * `failed` and `refunded` are final; nothing leaves them.
 */
export const TRANSITIONS: Record<PaymentStatus, Partial<Record<PaymentTrigger, PaymentStatus>>> = {
  [PaymentStatus.PENDING]: { complete: PaymentStatus.COMPLETED, fail: PaymentStatus.FAILED },
  [PaymentStatus.COMPLETED]: { refund: PaymentStatus.REFUNDED },
  [PaymentStatus.FAILED]: {},
  [PaymentStatus.REFUNDED]: {},
};

/** The one status from which `trigger` may fire, and its target. */
export function transitionFor(trigger: PaymentTrigger): { from: PaymentStatus; to: PaymentStatus } {
  for (const [from, moves] of Object.entries(TRANSITIONS) as [PaymentStatus, Partial<Record<PaymentTrigger, PaymentStatus>>][]) {
    const to = moves[trigger];
    if (to) return { from, to };
  }
  throw new Error(`no transition for ${trigger}`);
}

/**
 * Fires `trigger` as one conditional UPDATE (`… WHERE status = <from>` plus `guard`), so concurrent
 * callers cannot both move the payment: exactly one sees `true`. `changes` are written with the move.
 */
export async function applyTransition(
  em: EntityManager,
  paymentId: string,
  trigger: PaymentTrigger,
  guard: FilterQuery<Payment> & object,
  changes: Partial<Payment>,
): Promise<boolean> {
  const { from, to } = transitionFor(trigger);
  const updated = await em.nativeUpdate(Payment, { ...guard, id: paymentId, status: from } as FilterQuery<Payment>, { ...changes, status: to });
  return updated === 1;
}
