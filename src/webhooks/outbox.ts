import type { EntityManager } from '@mikro-orm/postgresql';
import type { Payment } from '../payments/payment.entity';
import { paymentPayload } from '../payments/payment-payload';
import type { PaymentFields } from '../payments/payment-snapshot';
import { PaymentStatus } from '../payments/payment-status';
import { randomBase62 } from '../shared/random-id';
import type { Shop } from '../shops/shop.entity';
import { shopReceives } from '../shops/webhook-event-choice';
import { WebhookDelivery } from './webhook-delivery.entity';
import { newWebhookEventId, WebhookEvent } from './webhook-event.entity';

export type PaymentEventType = 'payment.completed' | 'payment.failed' | 'payment.refunded';

/**
 * Writes a payment event to the outbox inside the caller's transaction, so the event exists exactly
 * when the state change does. The caller holds the payment's row lock (its conditional UPDATE), so the
 * per-payment sequence cannot be taken twice; the unique (payment, sequence) index is the backstop.
 * When the shop has a webhook URL and receives this type (payment.completed always; others if chosen), its
 * delivery is created in the same transaction (spec: a webhook is sent "if one is configured"), due at once.
 */
export async function recordPaymentEvent(tx: EntityManager, payment: Payment, type: PaymentEventType, baseUrl: string): Promise<WebhookEvent> {
  const [{ next }] = await tx.execute<{ next: number }[]>(NEXT_SEQUENCE_SQL, [payment.id]);
  const draft = paymentEventDraft(payment, payment.shop, type, baseUrl);
  const event = tx.create(WebhookEvent, { id: draft.id, createdAt: draft.createdAt, shop: payment.shop, payment, type, sequence: Number(next), body: draft.bodyAround(Number(next)) });
  if (payment.shop.webhookUrl && shopReceives(payment.shop.webhookEvents, type)) tx.create(WebhookDelivery, { event, shop: payment.shop, payment, nextAttemptAt: event.createdAt });
  return event;
}

/** A payment's next event sequence (the caller holds the payment's row lock). */
export const NEXT_SEQUENCE_SQL = 'select coalesce(max("sequence"), 0) + 1 as next from "webhook_events" where "payment_id" = ?';

/** An event about to be written whose sequence the database will choose: `body` is `before + sequence + after`. */
export interface PaymentEventDraft {
  id: string;
  type: PaymentEventType;
  createdAt: Date;
  before: string;
  after: string;
  bodyAround(sequence: number): string;
}

/**
 * Everything of a payment event but its sequence, for a writer that takes the sequence in the same statement
 * as the insert (checkout/completion-statement.ts). `payment` holds the fields as they are after the change.
 */
export function paymentEventDraft(payment: PaymentFields, shop: Pick<Shop, 'id' | 'name'>, type: PaymentEventType, baseUrl: string): PaymentEventDraft {
  const id = newWebhookEventId();
  const createdAt = new Date();
  const SENTINEL = '"sequence":0,';
  const body = eventBody({ id, type, sequence: 0, createdAt }, paymentPayload(payment, baseUrl), shop);
  const at = body.indexOf(SENTINEL) + '"sequence":'.length;
  const before = body.slice(0, at);
  const after = body.slice(at + 1);
  return { id, type, createdAt, before, after, bodyAround: (sequence) => `${before}${sequence}${after}` };
}

/**
 * A test delivery from the shop settings: a sample `payment.completed` body about a payment that does
 * not exist (its id starts `pay_TEST`), sent once with `X-Service-Test: true`.
 */
export function recordTestEvent(tx: EntityManager, shop: Shop, baseUrl: string): WebhookDelivery {
  const event = tx.create(WebhookEvent, { shop, payment: null, type: 'payment.completed', sequence: 1, body: '', test: true });
  const sample: PaymentFields = {
    id: `pay_TEST${randomBase62(20)}`,
    amount: 5000,
    currency: 'usd',
    status: PaymentStatus.COMPLETED,
    customerEmail: 'customer@example.com',
    customerName: 'Test Customer',
    metadata: { order_id: 'test-order' },
    createdAt: event.createdAt,
    completedAt: event.createdAt,
  };
  event.body = eventBody(event, paymentPayload(sample, baseUrl), shop);
  return tx.create(WebhookDelivery, { event, shop, payment: null, nextAttemptAt: event.createdAt });
}

/** The one serialization of an event; `amount` is integer cents, as everywhere in the API. */
function eventBody(event: Pick<WebhookEvent, 'id' | 'type' | 'sequence' | 'createdAt'>, payment: object, shop: Pick<Shop, 'id' | 'name'>): string {
  return JSON.stringify({
    id: event.id,
    event: event.type,
    sequence: event.sequence,
    payment,
    shop: { id: shop.id, shop_name: shop.name },
    timestamp: event.createdAt.toISOString(),
  });
}
