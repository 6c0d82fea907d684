import { BigIntType, Entity, Enum, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver, SafeIntResolver } from 'graphql-scalars';
import { enumOf } from '../../platform/lifecycle/lifecycle';
import { DISPUTE_LIFECYCLE } from './dispute.lifecycle';
import type { Payment } from '../payments';
import type { Refund } from '../refunds';
import { prefixedId } from '../../shared/random-id';

/** The dispute lifecycle's states (src/modules/disputes/dispute.lifecycle.ts: the moves, and what each books). */
export const DisputeStatus = enumOf(DISPUTE_LIFECYCLE.states);
export type DisputeStatus = (typeof DisputeStatus)[keyof typeof DisputeStatus];
registerEnumType(DisputeStatus, { name: 'DisputeStatus' });

/** Who bears a dispute's debits: the seller, the platform (the money had already gone back by refunds), or both. */
export enum DisputeLiability {
  SELLER = 'seller',
  PLATFORM = 'platform',
  SHARED = 'shared',
}
registerEnumType(DisputeLiability, { name: 'DisputeLiability', description: 'Who bears the disputed amount.' });

/** The states in which the chargeback stands (the liable account is debited): no refund may be requested or approved. */
export const CHARGEBACK_STANDS: readonly DisputeStatus[] = [DisputeStatus.CHARGED_BACK, DisputeStatus.SECOND_CHARGEBACK, DisputeStatus.LOST];

@ObjectType({ description: 'A dispute (chargeback) the acquirer notified against a payment, and what it did to the balance.' })
@Entity({ tableName: 'disputes' })
export class Dispute {
  @Field(() => ID)
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('dp', 24);

  /** One dispute per payment and acquirer reference (a unique index): a payment may be disputed again. */
  @ManyToOne('Payment')
  payment!: Payment;

  @Field(() => DisputeStatus)
  @Enum({ items: () => DisputeStatus })
  status: Opt<DisputeStatus> = DisputeStatus.NOTIFIED;

  @Field(() => SafeIntResolver, { description: 'Integer cents disputed: at most the payment amount.' })
  @Property({ type: new BigIntType('number') })
  amount!: number;

  @Field(() => String)
  @Property({ type: 'string', length: 3 })
  currency!: string;

  @Field(() => String, { nullable: true, description: "The issuer's reason, as the acquirer gave it." })
  @Property({ type: 'text', nullable: true })
  reason: string | null = null;

  @Field(() => String, { description: "The acquirer's reference of the dispute (every event of one dispute carries it)." })
  @Property({ type: 'string' })
  acquirerReference!: string;

  /**
   * What the seller bears of each debit, set when the chargeback lands and weighed again whenever a refund of the
   * payment settles, fails or is reversed: at most what the seller has not given back by refunds. The platform's
   * dispute account bears the rest.
   */
  @Field(() => SafeIntResolver, { description: 'Integer cents of the disputed amount the seller bears; the platform bears the rest.' })
  @Property({ type: new BigIntType('number') })
  sellerShare: Opt<number> = 0;

  @Field(() => DisputeLiability, { description: 'Who bears the disputed amount (from sellerShare).' })
  liability(): DisputeLiability {
    if (this.sellerShare === this.amount) return DisputeLiability.SELLER;
    return this.sellerShare === 0 ? DisputeLiability.PLATFORM : DisputeLiability.SHARED;
  }

  /** The refund that had already returned money when the chargeback came: finance's evidence to contest it. */
  @ManyToOne('Refund', { nullable: true })
  evidenceRefund: Refund | null = null;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When it was flagged for finance to contest (the payment had already been refunded, in part or in full).' })
  @Property({ type: 'datetime', nullable: true })
  contestFlaggedAt: Date | null = null;

  @Field(() => DateTimeISOResolver)
  @Property({ type: 'datetime' })
  openedAt: Opt<Date> = new Date();

  @Field(() => DateTimeISOResolver)
  @Property({ type: 'datetime' })
  updatedAt: Opt<Date> = new Date();
}
