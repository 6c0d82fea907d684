import type { EntityManager } from '@mikro-orm/postgresql';
import { applyMove, type MoveRequest } from '../../platform/lifecycle/apply-move';
import { PAYMENT_LIFECYCLE } from './payment.lifecycle';
import { emit, type PaymentEventType } from '../webhooks';
import { Payment } from './payment.entity';
import { paymentPayload } from './payment-payload';

/** A move of the payment table (src/modules/payments/payment.lifecycle.ts). */
export type PaymentMove = keyof typeof PAYMENT_LIFECYCLE.moves;

/**
 * Applies a payment move through the one move function: one conditional UPDATE of status and stage (plus the
 * request's own conditions), and the journal and event the table declares, in one transaction. The moved
 * payment comes back with its shop and seller, or null when the payment was not in the move's states.
 */
export function movePayment(em: EntityManager, move: PaymentMove, request: MoveRequest<Payment>): Promise<Payment | null> {
  // The shop (webhook URL, choice) and seller (ledger) are loaded only for moves that write effects.
  return applyMove(em, PAYMENT_LIFECYCLE, Payment, move, { populate: request.effects ? ['shop', 'shop.seller'] : [], ...request });
}

/** The outbox effect of payment moves: the event type the table names, with the payment payload. */
export function paymentEvent(baseUrl: string) {
  return (tx: EntityManager, payment: Payment, type: string) => emit(tx, { payment, type: type as PaymentEventType, payload: paymentPayload(payment, baseUrl) });
}
