import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver, JSONObjectResolver, SafeIntResolver } from 'graphql-scalars';
import { CheckoutStage, PaymentStatus } from './payment-status';
import type { Metadata } from './payment-rules';

registerEnumType(PaymentStatus, { name: 'PaymentStatus' });
registerEnumType(CheckoutStage, { name: 'CheckoutStage' });

/**
 * A card payment in GraphQL: these fields are the allow-list of what GraphQL (and so REST) can ever show of one.
 * Resolvers return the entity or the plain read shape of these fields (payment-view.ts, PaymentView).
 */
@ObjectType('Payment')
export class PaymentObject {
  @Field(() => ID)
  id!: string;

  @Field(() => SafeIntResolver)
  amount!: number;

  @Field(() => String)
  currency!: string;

  @Field(() => PaymentStatus)
  status!: PaymentStatus;

  @Field(() => String, { nullable: true })
  customerEmail!: string | null;

  @Field(() => String, { nullable: true })
  customerName!: string | null;

  @Field(() => JSONObjectResolver)
  metadata!: Metadata;

  @Field(() => DateTimeISOResolver)
  createdAt!: Date;

  @Field(() => DateTimeISOResolver, { nullable: true })
  completedAt!: Date | null;
}
