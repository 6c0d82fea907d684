import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { WebhookDeliveryStatus } from './webhook-delivery.entity';

registerEnumType(WebhookDeliveryStatus, {
  name: 'WebhookDeliveryStatus',
  valuesConfig: {
    PENDING: { description: 'Waiting for its next attempt (next_attempt_at).' },
    DELIVERED: { description: 'The receiver answered HTTP 200.' },
    FAILED: { description: 'Every attempt of its schedule failed; it can be re-sent.' },
  },
});

/**
 * What the schema shows of a webhook delivery. Resolvers return WebhookDelivery rows, whose properties of the same
 * names the fields read; the event's fields, shopId, paymentId and attempts are WebhookResolver's.
 */
@ObjectType('WebhookDelivery', { description: 'One event on its way to a webhook URL, with every attempt made.' })
export class WebhookDeliveryObject {
  @Field(() => ID)
  id!: string;

  @Field(() => WebhookDeliveryStatus)
  status!: WebhookDeliveryStatus;

  @Field(() => Int)
  attemptCount!: number;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the next attempt is due; null once delivered or failed.' })
  nextAttemptAt!: Date | null;

  @Field(() => DateTimeISOResolver, { nullable: true })
  lastAttemptAt!: Date | null;

  @Field(() => DateTimeISOResolver, { nullable: true })
  deliveredAt!: Date | null;

  @Field(() => DateTimeISOResolver, { nullable: true })
  failedAt!: Date | null;

  @Field(() => DateTimeISOResolver)
  createdAt!: Date;
}
