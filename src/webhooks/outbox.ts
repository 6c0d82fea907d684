import type { EntityManager } from '@mikro-orm/postgresql';
import type { Payment } from '../payments/payment.entity';
import { paymentPayload } from '../payments/payment-payload';
import { WebhookEvent } from './webhook-event.entity';

export type PaymentEventType = 'payment.completed' | 'payment.refunded';

/**
 * Writes a payment event to the outbox inside the caller's transaction, so the event exists exactly
 * when the state change does. The caller holds the payment's row lock (its conditional UPDATE), so the
 * per-payment sequence cannot be taken twice; the unique (payment, sequence) index is the backstop.
 */
export async function recordPaymentEvent(tx: EntityManager, payment: Payment, type: PaymentEventType, baseUrl: string): Promise<WebhookEvent> {
  const [{ next }] = await tx.execute<{ next: number }[]>(
    'select coalesce(max("sequence"), 0) + 1 as next from "webhook_events" where "payment_id" = ?',
    [payment.id],
  );
  const event = tx.create(WebhookEvent, { shop: payment.shop, payment, type, sequence: Number(next), body: '' });
  event.body = JSON.stringify({
    id: event.id,
    event: type,
    sequence: event.sequence,
    payment: paymentPayload(payment, baseUrl),
    shop: { id: payment.shop.id, shop_name: payment.shop.name },
    timestamp: event.createdAt.toISOString(),
  });
  return event;
}
