import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver, SafeIntResolver } from 'graphql-scalars';
import { ReviewedByAdminsObject } from '../admins/web';
import { RefundStatus } from './refund.entity';

registerEnumType(RefundStatus, { name: 'RefundStatus' });

@ObjectType('Refund', { description: 'A refund request for a completed payment (all or part of what remains of it), and what became of it.' })
export class RefundObject extends ReviewedByAdminsObject {
  @Field(() => ID)
  id!: string;

  @Field(() => SafeIntResolver, { description: 'Integer cents: all or part of the payment.' })
  amount!: number;

  @Field(() => String, { description: "The seller's reason, as support recorded it." })
  reason!: string;

  @Field(() => RefundStatus)
  status!: RefundStatus;

  @Field(() => String, { nullable: true, description: 'Why the acquirer refused the refund (status FAILED).' })
  failureReason!: string | null;

  @Field(() => String, { nullable: true, description: "The acquirer's reference of the refund." })
  processorReference!: string | null;

  @Field(() => Int, { description: 'How many times a job has called the acquirer for it.' })
  attempts!: number;

  @Field(() => DateTimeISOResolver, { nullable: true })
  refundedAt!: Date | null;

  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'Set when the acquirer still could not say whether it was refunded after RECONCILE_GIVE_UP_MS: an admin must settle it.',
  })
  needsAttentionAt!: Date | null;
}
