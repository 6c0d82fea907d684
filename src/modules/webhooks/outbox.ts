import type { EntityManager } from '@mikro-orm/postgresql';
import { type Shop, shopReceives, type WebhookEventType } from '../identity';
import { DELIVERIES_COMMITTED, eventInsertPart, nextEventSequence } from './outbox-store';
import { newWebhookDeliveryId, WebhookDelivery } from './webhook-delivery.entity';
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

/** What the outbox reads of the payment an event is about: its id, its shop, and whether it is a live test's. */
export interface EventPayment {
  id: string;
  shop: Shop;
  test: boolean;
}

/**
 * A payment event (payment.*, refund.*). Payments own the event and hand over its `payload` ready (their
 * paymentPayload), so the outbox loads nothing of payments; `refund` (refund events) is added to the body next to it.
 */
export interface PaymentEvent {
  payment: EventPayment;
  type: PaymentEventType;
  payload: object;
  refund?: object;
}

/** A withdrawal event (withdrawal.paid, withdrawal.rejected) for the shop it was asked through; `payload` is its JSON. */
export interface WithdrawalEvent {
  withdrawal: { id: string; shop: Shop };
  type: WithdrawalEventType;
  payload: object;
}

/**
 * The settings page's test event for `testFor`: a sample payment.completed, always delivered (the caller checked the
 * URL). `samplePayment` is the payload of a payment created at the event's time (payments' samplePaymentPayload).
 */
export interface TestEvent {
  testFor: Shop;
  samplePayment: (createdAt: Date) => object;
}

/**
 * A test event of any type, triggered by a seller's developer (docs/integrate.md, "Events on your machine"): sample
 * subjects made at the event's time, marked test, and delivered as a real event of its type is, only when the shop has
 * a webhook URL and receives the type. Every event stream of the shop reads it (event-stream.ts).
 */
export interface TriggeredEvent {
  triggeredFor: Shop;
  type: WebhookEventType;
  subjects: (createdAt: Date) => { payment?: object } & EventSubjects;
}

export type OutboxEvent = PaymentEvent | WithdrawalEvent | TestEvent | TriggeredEvent;

/**
 * Writes an event to the outbox in the caller's transaction, so it exists exactly when the change does, with its
 * delivery when the shop receives its type; the relay wakes once that transaction commits (DELIVERIES_COMMITTED). The
 * one way a module writes an event; a move made as one statement takes its statement form, emitInStatement.
 */
export async function emit(tx: EntityManager, event: OutboxEvent): Promise<WebhookEvent> {
  if ('payment' in event) return writePaymentEvent(tx, event);
  if ('withdrawal' in event) return writeWithdrawalEvent(tx, event);
  if ('triggeredFor' in event) return writeTriggeredEvent(tx, event);
  return writeTestEvent(tx, event);
}

const DELIVERIES = new WeakMap<WebhookEvent, WebhookDelivery>();

/** The delivery `emit` wrote with an event, if any: the settings page answers with its test delivery. */
export const deliveryEmittedWith = (event: WebhookEvent): WebhookDelivery | undefined => DELIVERIES.get(event);

/**
 * The caller holds the payment's row lock (its conditional UPDATE), so the per-payment sequence cannot be taken
 * twice; the unique (payment, sequence) index is the backstop.
 */
async function writePaymentEvent(tx: EntityManager, { payment, type, payload, refund }: PaymentEvent): Promise<WebhookEvent> {
  const next = await nextEventSequence(tx, 'payment_id', payment.id);
  const event = tx.create(WebhookEvent, { shop: payment.shop, paymentId: payment.id, type, sequence: next, body: '' });
  event.body = eventBody(event, { payment: payload, ...(refund ? { refund } : {}), ...liveTestMark(payment.test) }, payment.shop);
  deliverIfChosen(tx, event);
  return event;
}

/**
 * emit's statement form, for a payment move made as one statement (checkout/completion-statement.ts): the event and
 * its delivery as CTEs, the sequence taken by the INSERT itself (outbox-store.ts, eventInsertPart). `payload` shows
 * the payment as it is after the change. The statement's caller raises deliveriesCommitted when it wrote a delivery.
 */
export function emitInStatement(paymentId: string, payload: object, shop: Pick<Shop, 'id' | 'name'>, type: PaymentEventType, test: boolean, traceparent: string | null) {
  const id = newWebhookEventId();
  const createdAt = new Date();
  const { head, tail } = bodyAround({ id, type, createdAt }, { payment: payload, ...liveTestMark(test) }, shop);
  const sentToAll = shopReceives([], type);
  return eventInsertPart({ id, type, createdAt, head, tail, paymentId, sentToAll, deliveryId: newWebhookDeliveryId(), traceparent });
}

/**
 * Its sequence counts the withdrawal's events (the unique (withdrawal, sequence) index is the backstop); the body has
 * `withdrawal` where payment events have `payment`.
 */
async function writeWithdrawalEvent(tx: EntityManager, { withdrawal, type, payload }: WithdrawalEvent): Promise<WebhookEvent> {
  const next = await nextEventSequence(tx, 'withdrawal_id', withdrawal.id);
  const event = tx.create(WebhookEvent, { shop: withdrawal.shop, withdrawalId: withdrawal.id, type, sequence: next, body: '' });
  event.body = eventBody(event, { withdrawal: payload }, withdrawal.shop);
  deliverIfChosen(tx, event);
  return event;
}

/**
 * An event is written whatever the shop chose; its delivery only when the shop has a webhook URL and receives
 * this type (payment.completed always; others if chosen), in the same transaction, due at once.
 */
function deliverIfChosen(tx: EntityManager, event: WebhookEvent): void {
  const shop = event.shop;
  if (shop.webhookUrl && shopReceives(shop.webhookEvents, event.type as WebhookEventType)) deliver(tx, event);
}

/** The event's delivery, due at once, about the event's payment; its transaction's commit wakes the relay. */
function deliver(tx: EntityManager, event: WebhookEvent): void {
  DELIVERIES.set(event, tx.create(WebhookDelivery, { event, shop: event.shop, paymentId: event.paymentId, nextAttemptAt: event.createdAt }));
  DELIVERIES_COMMITTED.markWrittenIn(tx);
}

/**
 * A test delivery from the shop settings: a sample `payment.completed` body about a payment that does
 * not exist, sent once with `X-Service-Test: true`.
 */
function writeTestEvent(tx: EntityManager, { testFor: shop, samplePayment }: TestEvent): WebhookEvent {
  const event = tx.create(WebhookEvent, { shop, type: 'payment.completed', sequence: 1, body: '', test: true });
  event.body = eventBody(event, { payment: samplePayment(event.createdAt) }, shop);
  deliver(tx, event);
  return event;
}

/** A triggered test event: sequence 1, as the settings page's test event, about subjects that do not exist. */
function writeTriggeredEvent(tx: EntityManager, { triggeredFor: shop, type, subjects }: TriggeredEvent): WebhookEvent {
  const event = tx.create(WebhookEvent, { shop, type, sequence: 1, body: '', test: true });
  event.body = eventBody(event, subjects(event.createdAt), shop);
  deliverIfChosen(tx, event);
  return event;
}

/**
 * The one serialization of every event: `id`, `event`, `sequence`, then what it is about (`payment`, plus
 * `refund` for refund events; `withdrawal` for withdrawal events), `test: true` for a live test only, `shop`, `timestamp`. `amount` is integer
 * cents, as everywhere in the API.
 */
function eventBody(event: Pick<WebhookEvent, 'id' | 'type' | 'sequence' | 'createdAt'>, subjects: { payment?: object } & EventSubjects, shop: Pick<Shop, 'id' | 'name'>): string {
  const { head, tail } = bodyAround(event, subjects, shop);
  return `${head}${event.sequence}${tail}`;
}

/**
 * The body in two halves around its sequence, so a statement that takes the sequence itself writes the same bytes
 * (an integer reads alike in JSON and PostgreSQL's `::text`). The subjects are named one by one, in the body's
 * order, rather than spread: JSON.stringify leaves out the absent (undefined) ones, and a spread first in a
 * literal made this about 80% slower.
 */
function bodyAround(event: Pick<WebhookEvent, 'id' | 'type' | 'createdAt'>, subjects: { payment?: object } & EventSubjects, shop: Pick<Shop, 'id' | 'name'>) {
  const { payment, refund, withdrawal, test } = subjects;
  const tail = JSON.stringify({ payment, refund, withdrawal, test, shop: { id: shop.id, shop_name: shop.name }, timestamp: event.createdAt.toISOString() });
  return { head: `{"id":${JSON.stringify(event.id)},"event":${JSON.stringify(event.type)},"sequence":`, tail: `,${tail.slice(1)}` };
}
