import { Field, Float, InputType, ObjectType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import type { Payment } from './payment.entity';
import { PaymentObject } from './payment.object';
import { Pagination } from '../../platform/graphql/pages';
import type { CreatePaymentRequest } from './payment-rules';
import type { PaymentView } from './payment-view';

/**
 * Every field is optional and loosely typed on purpose: the payment rules, not GraphQL coercion,
 * decide what is missing or invalid, so GraphQL and REST callers get the same messages.
 */
@InputType()
export class CreatePaymentInput implements CreatePaymentRequest {
  @Field(() => Float, { nullable: true, description: 'Integer cents of USD, at least 50.' })
  amount?: number | null;

  @Field(() => String, { nullable: true, description: "Only 'usd'." })
  currency?: string | null;

  @Field(() => String, { nullable: true, description: 'HTTPS address the customer returns to.' })
  returnUrl?: string | null;

  @Field(() => String, { nullable: true })
  customerEmail?: string | null;

  @Field(() => String, { nullable: true })
  customerName?: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: 'Flat object: at most 50 keys, values string, number or boolean, 5KB.' })
  metadata?: unknown;
}

@ObjectType()
export class CreatePaymentResult {
  /** The read shape: a create builds no entity. */
  @Field(() => PaymentObject, { description: 'The payment as first created (a replay answers the same).' })
  payment!: PaymentView;

  @Field({ description: 'True when an earlier request with the same Idempotency-Key answered this.' })
  replayed!: boolean;
}

@ObjectType()
export class PaymentList {
  @Field(() => [PaymentObject]) items!: Payment[];
  @Field(() => Pagination) pagination!: Pagination;
}
