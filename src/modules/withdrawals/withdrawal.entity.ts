import { BigIntType, Entity, Enum, ManyToOne, type Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { type Admin, ReviewedByAdmins } from '../admins';
import { enumOf, openStatesOf } from '../../platform/lifecycle/lifecycle';
import { WITHDRAWAL_LIFECYCLE } from './withdrawal.lifecycle';
import { prefixedId } from '../../shared/random-id';
import type { Seller, Shop } from '../identity';

/** The withdrawal lifecycle's states (src/modules/withdrawals/withdrawal.lifecycle.ts: the moves, and what each writes). */
export const WithdrawalStatus = enumOf(WITHDRAWAL_LIFECYCLE.states);
export type WithdrawalStatus = (typeof WithdrawalStatus)[keyof typeof WithdrawalStatus];

/** Statuses whose amount is still held in the ledger, waiting to be paid out (not final). */
export const PENDING_WITHDRAWAL_STATUSES = openStatesOf(WITHDRAWAL_LIFECYCLE);

/** A seller's request to be paid out part of its balance; the amount is held from the moment it is requested. */
@Entity({ tableName: 'withdrawals' })
export class Withdrawal extends ReviewedByAdmins {
  @PrimaryKey({ type: 'string' })
  id: string = prefixedId('wd', 24);

  @ManyToOne('Seller')
  seller!: Seller;

  /** The shop through which it was asked for (its key, or an admin acting for it). */
  @ManyToOne('Shop')
  shop!: Shop;

  @Property({ type: new BigIntType('number') })
  amount!: number;

  @Enum({ items: () => WithdrawalStatus })
  status: Opt<WithdrawalStatus> = WithdrawalStatus.REQUESTED;

  /** Null when the seller asked with its API key. */
  @ManyToOne('Admin', { nullable: true })
  requestedBy: Admin | null = null;

  @Property({ type: 'string', nullable: true })
  payoutReference: string | null = null;

  @Property({ type: 'datetime', nullable: true })
  paidAt: Date | null = null;
}
