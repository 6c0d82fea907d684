import { Entity, Enum, ManyToOne, OneToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { enumOf } from '../../platform/lifecycle/lifecycle';
import { WEBHOOK_DELIVERY_LIFECYCLE } from './webhook-delivery.lifecycle';
import { prefixedId } from '../../shared/random-id';
import type { Shop } from '../identity';
import { WebhookEvent } from './webhook-event.entity';

/** From the delivery lifecycle (src/modules/webhooks/webhook-delivery.lifecycle.ts). */
export const WebhookDeliveryStatus = enumOf(WEBHOOK_DELIVERY_LIFECYCLE.states);
export type WebhookDeliveryStatus = (typeof WebhookDeliveryStatus)[keyof typeof WebhookDeliveryStatus];

/** A new delivery's id. */
export const newWebhookDeliveryId = () => prefixedId('whd', 24);

/**
 * Taking one event to the shop's webhook URL: created with the event (same transaction) when the shop
 * has a URL. PostgreSQL holds the schedule (`next_attempt_at`), so a restart or a lost Redis loses
 * nothing; the queue only carries "attempt now" messages. An attempt is claimed with a conditional
 * UPDATE that takes the next attempt number and a lease, so two workers can never send the same attempt.
 * Its attempts name it (WebhookAttempt's `delivery`); it names none of them, and they are read by delivery id.
 */
@Entity({ tableName: 'webhook_deliveries' })
export class WebhookDelivery {
  @PrimaryKey({ type: 'string' })
  id: string = newWebhookDeliveryId();

  @OneToOne(() => WebhookEvent, { owner: true })
  event!: WebhookEvent;

  @ManyToOne('Shop')
  shop!: Shop;

  /** Its event's payment (plain id, as on the event); null for test and withdrawal events. */
  @Property({ type: 'string', nullable: true })
  paymentId: Opt<string> | null = null;

  @Enum({ items: () => WebhookDeliveryStatus })
  status: Opt<WebhookDeliveryStatus> = WebhookDeliveryStatus.PENDING;

  /** Attempts made, over every schedule (a re-send starts a new schedule and keeps counting). */
  @Property({ type: 'integer' })
  attemptCount: Opt<number> = 0;

  /** `attemptCount` when the current schedule began: the back-off position is the difference. */
  @Property({ type: 'integer' })
  scheduleStart: Opt<number> = 0;

  @Property({ type: 'datetime', nullable: true })
  nextAttemptAt: Date | null = new Date();

  /** The lease of the worker making an attempt; an expired lease means that worker was lost. */
  @Property({ type: 'datetime', nullable: true })
  lockedUntil: Date | null = null;

  /** The relay's note of what it last put on the queue (`attemptCount` then, and when). */
  @Property({ type: 'integer', nullable: true })
  enqueuedAttempt: number | null = null;

  @Property({ type: 'datetime', nullable: true })
  enqueuedAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  lastAttemptAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  deliveredAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  failedAt: Date | null = null;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();
}
