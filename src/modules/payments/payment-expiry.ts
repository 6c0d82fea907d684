import type { EntityManager } from '@mikro-orm/postgresql';
import { PAYMENT_LIFECYCLE } from './payment.lifecycle';
import { Payment } from './payment.entity';
import { movePayment, paymentEvent } from './payment-moves';
import { CheckoutStage, PaymentStatus } from './payment-status';

/**
 * Expiry of unpaid checkouts (docs/checkout.md, "Expiry"). A pending payment stops taking a card, or a
 * 3-D Secure answer, PAYMENT_EXPIRES_AFTER_MS after it was created, and moves to `failed` with the failure
 * code `expired` (for the dashboard and admins; REST shows `failed`, one of the spec's four statuses).
 * A card already at the acquirer (stage `processing`) is never expired: its answer, or reconciliation,
 * settles it, so a charge can never meet an expired payment.
 */
export const EXPIRED = 'expired';

/** The stages an unpaid payment expires from (nothing of it is at the acquirer): the table's `expire` move. */
export const EXPIRING_STAGES = PAYMENT_LIFECYCLE.moves.expire.stage!.from as readonly CheckoutStage[];

export interface ExpiryDeps {
  expiresAfterMs: number;
  /** The public base URL, for the payment payload of `payment.failed`. */
  baseUrl: string;
}

/** The creation time at or before which a payment has expired, now. */
export function expiryDeadline(expiresAfterMs: number, now = Date.now()): Date {
  return new Date(now - expiresAfterMs);
}

/** Whether `payment` is past its expiry and not yet moved: the reads that find it so expire it first. */
export function isDueToExpire(payment: Pick<Payment, 'status' | 'checkoutStage' | 'createdAt'>, expiresAfterMs: number, now = Date.now()): boolean {
  return (
    payment.status === PaymentStatus.PENDING &&
    EXPIRING_STAGES.includes(payment.checkoutStage) &&
    payment.createdAt.getTime() <= expiryDeadline(expiresAfterMs, now).getTime()
  );
}

/**
 * pending -> failed `expired`, with its `payment.failed` outbox event, in one transaction. The conditional
 * UPDATE names the expiring stages and the deadline, and a card claim names `card_required` and a creation
 * after the deadline (submitCard): both are updates of the same row, so at the very moment of expiry exactly
 * one lands and the other finds the row moved. No ledger entry: nothing was charged.
 */
export async function expirePayment(em: EntityManager, deps: ExpiryDeps, paymentId: string): Promise<boolean> {
  const moved = await movePayment(em, 'expire', {
    id: paymentId,
    where: { createdAt: { $lte: expiryDeadline(deps.expiresAfterMs) } },
    changes: { failureCode: EXPIRED, threeDsReference: null, threeDsReturnHash: null },
    effects: { event: paymentEvent(deps.baseUrl) },
  });
  return !!moved;
}

/**
 * The sweep's part (run by the reconciliation sweep of every instance): expires up to `limit` payments past
 * their expiry, oldest first, so lists and searches show them failed without anyone opening them. Two
 * instances may pick the same rows; the conditional move lands once.
 */
export async function expireDuePayments(em: EntityManager, deps: ExpiryDeps, limit = 100): Promise<string[]> {
  const due = await em.find(
    Payment,
    { status: PaymentStatus.PENDING, checkoutStage: { $in: [...EXPIRING_STAGES] }, createdAt: { $lte: expiryDeadline(deps.expiresAfterMs) } },
    { fields: ['id'], orderBy: { createdAt: 'asc' }, limit },
  );
  const expired: string[] = [];
  for (const { id } of due) if (await expirePayment(em.fork(), deps, id)) expired.push(id);
  return expired;
}
