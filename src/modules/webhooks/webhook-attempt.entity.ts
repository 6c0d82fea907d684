import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import type { WebhookDelivery } from './webhook-delivery.entity';

/** How much of a receiver's answer is kept (bytes): enough to see an error page's gist. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/**
 * One HTTP attempt of a delivery, written before the request goes out and completed after it; an
 * attempt whose worker died stays without outcome until the next attempt marks it `worker lost`.
 */
@Entity({ tableName: 'webhook_attempts' })
@Unique({ name: 'webhook_attempts_delivery_number_unique', properties: ['delivery', 'number'] })
export class WebhookAttempt {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @ManyToOne('WebhookDelivery')
  delivery!: WebhookDelivery;

  @Property({ type: 'integer' })
  number!: number;

  @Property({ type: 'text', nullable: true })
  url!: string | null;

  @Property({ type: 'datetime' })
  startedAt!: Date;

  @Property({ type: 'integer', nullable: true })
  durationMs: number | null = null;

  @Property({ type: 'integer', nullable: true })
  httpStatus: number | null = null;

  @Property({ type: 'text', nullable: true })
  error: string | null = null;

  @Property({ type: 'text', nullable: true })
  responseExcerpt: string | null = null;
}
