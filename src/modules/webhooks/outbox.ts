import type { EntityManager } from '@mikro-orm/postgresql';
import { type Payment, paymentPayload, type PaymentFields, PaymentStatus } from '../payments';
import { randomBase62 } from '../../shared/random-id';
import { type Shop, shopReceives, type WebhookEventType } from '../identity';
import { nextEventSequence } from './outbox-store';
import { WebhookDelivery } from './webhook-delivery.entity';
import { newWebhookEventId, WebhookEvent } from './webhook-event.entity';

export type PaymentEventType = Extract<WebhookEventType, `payment.${string}` | `refund.${string}`>;
export type WithdrawalEventType = Extract<WebhookEventType, `withdrawal.${string}`>;

/**
 * What an event is about besides the payment: a refund (refund events) or a withdrawal (withdrawal events);
 * `test: true` marks every event of a live test (docs/reference.md, "Webhooks"), so the seller's code can ignore it.
 */
export type EventSubjects = { refund?: object; withdrawal?: object; test?: true };

/** `test: true` for a live test's events; nothing at all for any other payment, whose bodies stay as they were. */
const liveTestMark = (test: boolean): Pick<EventSubjects, 'test'> => (test ? { test: true } : {});

/**
 * Writes a payment event (payment.*, refund.*) to the outbox inside the caller's transaction, so the event
 * exists exactly when the state change does. The caller holds the payment's row lock (its conditional
 * UPDATE), so the per-payment sequence cannot be taken twice; the unique (payment, sequence) index is the
 * backstop. `refund` (refund events) is added to the body next to `payment`.
 */
export async function recordPaymentEvent(
  tx: EntityManager,
  payment: Payment,
  type: PaymentEventType,
  baseUrl: string,
  refund?: object,
): Promise<WebhookEvent> {
  const next = await nextEventSequence(tx, 'payment_id', payment.id);
  const event = tx.create(WebhookEvent, { shop: payment.shop, payment, type, sequence: next, body: '' });
  event.body = eventBody(event, { payment: paymentPayload(payment, baseUrl), ...(refund ? { refund } : {}), ...liveTestMark(payment.test) }, payment.shop);
  deliverIfChosen(tx, event, payment);
  return event;
}

/** A payment's next event sequence, as SQL for a statement that takes it itself (checkout/completion-statement.ts). */
export { NEXT_SEQUENCE_SQL } from './outbox-store';

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
export function paymentEventDraft(payment: PaymentFields, shop: Pick<Shop, 'id' | 'name'>, type: PaymentEventType, baseUrl: string, test = false): PaymentEventDraft {
  const id = newWebhookEventId();
  const createdAt = new Date();
  const SENTINEL = '"sequence":0,';
  const body = eventBody({ id, type, sequence: 0, createdAt }, { payment: paymentPayload(payment, baseUrl), ...liveTestMark(test) }, shop);
  const at = body.indexOf(SENTINEL) + '"sequence":'.length;
  const before = body.slice(0, at);
  const after = body.slice(at + 1);
  return { id, type, createdAt, before, after, bodyAround: (sequence) => `${before}${sequence}${after}` };
}

/**
 * Writes a withdrawal event (withdrawal.paid, withdrawal.rejected) to the outbox in the move's transaction,
 * for the shop the withdrawal was asked through. Its sequence counts the withdrawal's events (the unique
 * (withdrawal, sequence) index is the backstop); the body has `withdrawal` where payment events have `payment`.
 */
export async function recordWithdrawalEvent(
  tx: EntityManager,
  withdrawal: { id: string; shop: Shop },
  type: WithdrawalEventType,
  payload: object,
): Promise<WebhookEvent> {
  const next = await nextEventSequence(tx, 'withdrawal_id', withdrawal.id);
  const event = tx.create(WebhookEvent, { shop: withdrawal.shop, payment: null, withdrawalId: withdrawal.id, type, sequence: next, body: '' });
  event.body = eventBody(event, { withdrawal: payload }, withdrawal.shop);
  deliverIfChosen(tx, event, null);
  return event;
}

/**
 * An event is written whatever the shop chose; its delivery only when the shop has a webhook URL and receives
 * this type (payment.completed always; others if chosen), in the same transaction, due at once.
 */
function deliverIfChosen(tx: EntityManager, event: WebhookEvent, payment: Payment | null): void {
  const shop = event.shop;
  if (shop.webhookUrl && shopReceives(shop.webhookEvents, event.type as WebhookEventType)) {
    tx.create(WebhookDelivery, { event, shop, payment, nextAttemptAt: event.createdAt });
  }
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
  event.body = eventBody(event, { payment: paymentPayload(sample, baseUrl) }, shop);
  return tx.create(WebhookDelivery, { event, shop, payment: null, nextAttemptAt: event.createdAt });
}

/**
 * The one serialization of every event: `id`, `event`, `sequence`, then what it is about (`payment`, plus
 * `refund` for refund events; `withdrawal` for withdrawal events), `test: true` for a live test only, `shop`, `timestamp`. `amount` is integer
 * cents, as everywhere in the API.
 */
function eventBody(event: Pick<WebhookEvent, 'id' | 'type' | 'sequence' | 'createdAt'>, subjects: { payment?: object } & EventSubjects, shop: Pick<Shop, 'id' | 'name'>): string {
  return JSON.stringify({
    id: event.id,
    event: event.type,
    sequence: event.sequence,
    ...subjects,
    shop: { id: shop.id, shop_name: shop.name },
    timestamp: event.createdAt.toISOString(),
  });
}
