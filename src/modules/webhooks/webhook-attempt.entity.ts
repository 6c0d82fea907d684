import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import type { WebhookDelivery } from './webhook-delivery.entity';

/** How much of a receiver's answer is kept (bytes): enough to see an error page's gist. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/**
 * One HTTP attempt of a delivery, written before the request goes out and completed after it; an
 * attempt whose worker died stays without outcome until the next attempt marks it `worker lost`.
 */
@ObjectType({ description: 'One HTTP attempt of a webhook delivery.' })
@Entity({ tableName: 'webhook_attempts' })
@Unique({ name: 'webhook_attempts_delivery_number_unique', properties: ['delivery', 'number'] })
export class WebhookAttempt {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @ManyToOne('WebhookDelivery')
  delivery!: WebhookDelivery;

  @Field(() => Int, { description: '1, 2, ... per delivery, across re-sends.' })
  @Property({ type: 'integer' })
  number!: number;

  @Field(() => String, { nullable: true, description: 'Where it was sent; null when the shop had no webhook URL.' })
  @Property({ type: 'text', nullable: true })
  url!: string | null;

  @Field(() => DateTimeISOResolver)
  @Property({ type: 'datetime' })
  startedAt!: Date;

  @Field(() => Int, { nullable: true, description: 'Null while in flight or when the worker was lost.' })
  @Property({ type: 'integer', nullable: true })
  durationMs: number | null = null;

  @Field(() => Int, { nullable: true, description: 'The HTTP status answered; only 200 counts as delivered.' })
  @Property({ type: 'integer', nullable: true })
  httpStatus: number | null = null;

  @Field(() => String, { nullable: true, description: 'Why no usable answer came: time-out, connection error, refused address, ...' })
  @Property({ type: 'text', nullable: true })
  error: string | null = null;

  @Field(() => String, { nullable: true, description: `The first ${RESPONSE_EXCERPT_BYTES} bytes of the answer's body.` })
  @Property({ type: 'text', nullable: true })
  responseExcerpt: string | null = null;
}
