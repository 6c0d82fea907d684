import { BigIntType, Entity, Enum, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver, SafeIntResolver } from 'graphql-scalars';
import { type Admin, ReviewedByAdmins } from '../admins';
import type { Payment } from '../payments';
import { enumOf } from '../../platform/lifecycle/lifecycle';
import { REFUND_LIFECYCLE } from './refund.lifecycle';
import { prefixedId } from '../../shared/random-id';

/** The refund lifecycle's states (src/modules/refunds/refund.lifecycle.ts: the moves, and what each writes). */
export const RefundStatus = enumOf(REFUND_LIFECYCLE.states);
export type RefundStatus = (typeof RefundStatus)[keyof typeof RefundStatus];
registerEnumType(RefundStatus, { name: 'RefundStatus' });

/** A refund request for a completed payment, for any amount up to what remains of it, and what became of it. */
@ObjectType({ description: 'A refund request for a completed payment (all or part of what remains of it), and what became of it.' })
@Entity({ tableName: 'refunds' })
export class Refund extends ReviewedByAdmins {
  @Field(() => ID)
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('ref', 24);

  @ManyToOne('Payment')
  payment!: Payment;

  @Field(() => SafeIntResolver, { description: 'Integer cents: all or part of the payment.' })
  @Property({ type: new BigIntType('number') })
  amount!: number;

  @Field(() => String, { description: "The seller's reason, as support recorded it." })
  @Property({ type: 'text' })
  reason!: string;

  @Field(() => RefundStatus)
  @Enum({ items: () => RefundStatus })
  status: Opt<RefundStatus> = RefundStatus.REQUESTED;

  /** The support or finance admin who recorded it; null when the seller asked from the dashboard. */
  @ManyToOne('Admin', { nullable: true })
  requestedBy: Admin | null = null;

  @Field(() => String, { nullable: true, description: 'Why the acquirer refused the refund (status FAILED).' })
  @Property({ type: 'text', nullable: true })
  failureReason: string | null = null;

  @Field(() => String, { nullable: true, description: "The acquirer's reference of the refund." })
  @Property({ type: 'string', nullable: true })
  processorReference: string | null = null;

  @Field(() => Int, { description: 'How many times a job has called the acquirer for it.' })
  @Property({ type: 'integer' })
  attempts: Opt<number> = 0;

  /** When a job last claimed it; a claim older than REFUND_PROCESSING_TIMEOUT_MS is taken over. */
  @Property({ type: 'datetime', nullable: true })
  claimedAt: Date | null = null;

  @Field(() => DateTimeISOResolver, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  refundedAt: Date | null = null;

  /** When the acquirer refused it (the `fail` move): a stage of the customer's tracking page. */
  @Property({ type: 'datetime', nullable: true })
  failedAt: Date | null = null;

  /** When the acquirer reversed it (the `reverse` move): a stage of the customer's tracking page. */
  @Property({ type: 'datetime', nullable: true })
  reversedAt: Date | null = null;

  /** SHA-256 of the token of the customer's tracking link (src/modules/refunds/refund-tracking.ts); never the token. */
  @Property({ type: 'text', nullable: true, hidden: true, lazy: true })
  trackingTokenHash: string | null = null;

  /** The reconciliation sweeper's lease: no other instance asks the acquirer about it before this. */
  @Property({ type: 'datetime', nullable: true })
  reconcileLeasedUntil: Date | null = null;

  @Field(() => DateTimeISOResolver, {
    nullable: true,
    description: 'Set when the acquirer still could not say whether it was refunded after RECONCILE_GIVE_UP_MS: an admin must settle it.',
  })
  @Property({ type: 'datetime', nullable: true })
  needsAttentionAt: Date | null = null;
}
