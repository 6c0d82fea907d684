import { Entity, ManyToOne, type Opt, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { currentTraceparent } from '../../platform/observability/tracing';
import { prefixedId } from '../../shared/random-id';
import type { Shop } from '../identity';

/** A new event's id. */
export const newWebhookEventId = () => prefixedId('evt', 24);

/**
 * The outbox: an event written in the same transaction as the state change that causes them. `body` is
 * the JSON serialized once; every delivery attempt sends these exact bytes.
 */
@Entity({ tableName: 'webhook_events' })
@Unique({ name: 'webhook_events_payment_sequence_unique', properties: ['paymentId', 'sequence'] })
@Unique({ name: 'webhook_events_withdrawal_sequence_unique', properties: ['withdrawalId', 'sequence'] })
export class WebhookEvent {
  @PrimaryKey({ type: 'string' })
  id: string = newWebhookEventId();

  @ManyToOne('Shop')
  shop!: Shop;

  /**
   * The payment the event is about (plain id, as `withdrawalId`: the outbox needs no payment entity); null for test
   * deliveries (their body describes a sample payment) and for withdrawal events.
   */
  @Property({ type: 'string', nullable: true })
  paymentId: Opt<string> | null = null;

  /** The withdrawal a withdrawal event is about (plain id: the outbox needs no withdrawal entity). */
  @Property({ type: 'string', nullable: true })
  withdrawalId: Opt<string> | null = null;

  /** For example `payment.completed`. */
  @Property({ type: 'string' })
  type!: string;

  /** 1, 2, ... per payment (or per withdrawal), so receivers can drop stale or out-of-order events. */
  @Property({ type: 'integer' })
  sequence!: number;

  @Property({ type: 'text' })
  body!: string;

  /** A test delivery requested from the shop settings: sent once with `X-Service-Test: true`. */
  @Property({ type: 'boolean' })
  test: Opt<boolean> = false;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  /** With tracing on: the W3C traceparent of the span that wrote the event, which its deliveries continue. */
  @Property({ type: 'text', nullable: true })
  traceparent: Opt<string> | null = currentTraceparent();
}
