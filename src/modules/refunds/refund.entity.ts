import { BigIntType, Entity, Enum, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { type Admin, ReviewedByAdmins } from '../admins';
import type { Payment } from '../payments';
import { enumOf } from '../../platform/lifecycle/lifecycle';
import { REFUND_LIFECYCLE } from './refund.lifecycle';
import { prefixedId } from '../../shared/random-id';

/** The refund lifecycle's states (src/modules/refunds/refund.lifecycle.ts: the moves, and what each writes). */
export const RefundStatus = enumOf(REFUND_LIFECYCLE.states);
export type RefundStatus = (typeof RefundStatus)[keyof typeof RefundStatus];

/** A refund request for a completed payment, for any amount up to what remains of it, and what became of it. */
@Entity({ tableName: 'refunds' })
export class Refund extends ReviewedByAdmins {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('ref', 24);

  @ManyToOne('Payment')
  payment!: Payment;

  @Property({ type: new BigIntType('number') })
  amount!: number;

  @Property({ type: 'text' })
  reason!: string;

  @Enum({ items: () => RefundStatus })
  status: Opt<RefundStatus> = RefundStatus.REQUESTED;

  /** The support or finance admin who recorded it; null when the seller asked from the dashboard. */
  @ManyToOne('Admin', { nullable: true })
  requestedBy: Admin | null = null;

  @Property({ type: 'text', nullable: true })
  failureReason: string | null = null;

  @Property({ type: 'string', nullable: true })
  processorReference: string | null = null;

  @Property({ type: 'integer' })
  attempts: Opt<number> = 0;

  /** When a job last claimed it; a claim older than REFUND_PROCESSING_TIMEOUT_MS is taken over. */
  @Property({ type: 'datetime', nullable: true })
  claimedAt: Date | null = null;

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

  @Property({ type: 'datetime', nullable: true })
  needsAttentionAt: Date | null = null;
}
