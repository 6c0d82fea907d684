import { BigIntType, Entity, Enum, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { enumOf } from '../../platform/lifecycle/lifecycle';
import { DISPUTE_LIFECYCLE } from './dispute.lifecycle';
import type { Payment } from '../payments';
import type { Refund } from '../refunds';
import { prefixedId } from '../../shared/random-id';

/** The dispute lifecycle's states (src/modules/disputes/dispute.lifecycle.ts: the moves, and what each books). */
export const DisputeStatus = enumOf(DISPUTE_LIFECYCLE.states);
export type DisputeStatus = (typeof DisputeStatus)[keyof typeof DisputeStatus];

/** Who bears a dispute's debits: the seller, the platform (the money had already gone back by refunds), or both. */
export enum DisputeLiability {
  SELLER = 'seller',
  PLATFORM = 'platform',
  SHARED = 'shared',
}

/** The states in which the chargeback stands (the liable account is debited): no refund may be requested or approved. */
export const CHARGEBACK_STANDS: readonly DisputeStatus[] = [DisputeStatus.CHARGED_BACK, DisputeStatus.SECOND_CHARGEBACK, DisputeStatus.LOST];

/** A dispute (chargeback) the acquirer notified against a payment; GraphQL shows it as DisputeObject. */
@Entity({ tableName: 'disputes' })
export class Dispute {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('dp', 24);

  /** One dispute per payment and acquirer reference (a unique index): a payment may be disputed again. */
  @ManyToOne('Payment')
  payment!: Payment;

  @Enum({ items: () => DisputeStatus })
  status: Opt<DisputeStatus> = DisputeStatus.NOTIFIED;

  @Property({ type: new BigIntType('number') })
  amount!: number;

  @Property({ type: 'string', length: 3 })
  currency!: string;

  @Property({ type: 'text', nullable: true })
  reason: string | null = null;

  @Property({ type: 'string' })
  acquirerReference!: string;

  /**
   * What the seller bears of each debit, set when the chargeback lands and weighed again whenever a refund of the
   * payment settles, fails or is reversed: at most what the seller has not given back by refunds. The platform's
   * dispute account bears the rest.
   */
  @Property({ type: new BigIntType('number') })
  sellerShare: Opt<number> = 0;

  /** Who bears the debits, from sellerShare (GraphQL's `liability`: DisputeAdminResolver.liability). */
  liability(): DisputeLiability {
    if (this.sellerShare === this.amount) return DisputeLiability.SELLER;
    return this.sellerShare === 0 ? DisputeLiability.PLATFORM : DisputeLiability.SHARED;
  }

  /** The refund that had already returned money when the chargeback came: finance's evidence to contest it. */
  @ManyToOne('Refund', { nullable: true })
  evidenceRefund: Refund | null = null;

  @Property({ type: 'datetime', nullable: true })
  contestFlaggedAt: Date | null = null;

  @Property({ type: 'datetime' })
  openedAt: Opt<Date> = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Opt<Date> = new Date();
}
