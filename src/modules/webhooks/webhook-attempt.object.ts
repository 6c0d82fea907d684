import { Field, Int, ObjectType } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { RESPONSE_EXCERPT_BYTES } from './webhook-attempt.entity';

/** What the schema shows of a webhook attempt. Resolvers return WebhookAttempt rows, read property by property. */
@ObjectType('WebhookAttempt', { description: 'One HTTP attempt of a webhook delivery.' })
export class WebhookAttemptObject {
  @Field(() => Int, { description: '1, 2, ... per delivery, across re-sends.' })
  number!: number;

  @Field(() => String, { nullable: true, description: 'Where it was sent; null when the shop had no webhook URL.' })
  url!: string | null;

  @Field(() => DateTimeISOResolver)
  startedAt!: Date;

  @Field(() => Int, { nullable: true, description: 'Null while in flight or when the worker was lost.' })
  durationMs!: number | null;

  @Field(() => Int, { nullable: true, description: 'The HTTP status answered; only 200 counts as delivered.' })
  httpStatus!: number | null;

  @Field(() => String, { nullable: true, description: 'Why no usable answer came: time-out, connection error, refused address, ...' })
  error!: string | null;

  @Field(() => String, { nullable: true, description: `The first ${RESPONSE_EXCERPT_BYTES} bytes of the answer's body.` })
  responseExcerpt!: string | null;
}
