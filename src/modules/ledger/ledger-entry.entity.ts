import { BigIntType, Entity, Enum, type Opt, PrimaryKey, Property } from '@mikro-orm/core';

/** The accounts money moves between; only `seller_balance` belongs to one seller. */
export enum LedgerAccount {
  CUSTOMER_FUNDS = 'customer_funds',
  SELLER_BALANCE = 'seller_balance',
  FEE_REVENUE = 'fee_revenue',
  WITHDRAWALS_PAYABLE = 'withdrawals_payable',
  /** Money paid out to sellers' bank accounts (withdrawals marked paid). */
  PAYOUTS = 'payouts',
  /** Disputes the platform bears: a chargeback on a payment already refunded, which finance contests. */
  PLATFORM_DISPUTES = 'platform_disputes',
}

/**
 * One line of the append-only, double-entry ledger (the database refuses UPDATE and DELETE, and
 * refuses a journal whose entries do not sum to zero). Balances are sums of entries, never counters.
 * What an entry belongs to (seller, payment, withdrawal, refund, dispute) is a plain id: the ledger names no other
 * module's entity, and the foreign keys are the database's (the migrations).
 */
@Entity({ tableName: 'ledger_entries' })
export class LedgerEntry {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  /** Entries written together for one money movement share a journal id and sum to zero. */
  @Property({ type: 'string' })
  journalId!: string;

  @Enum({ items: () => LedgerAccount })
  account!: LedgerAccount;

  /** The seller whose balance a `seller_balance` entry moves; null on the other accounts. */
  @Property({ type: 'string', nullable: true })
  sellerId: string | null = null;

  @Property({ type: 'string', nullable: true })
  paymentId: string | null = null;

  /** The withdrawal a hold, release or payout belongs to (one per withdrawal and kind). */
  @Property({ type: 'string', nullable: true })
  withdrawalId: string | null = null;

  /** The refund a `refund`, `test_refund` or `refund_reversed` journal belongs to (one per refund and kind). */
  @Property({ type: 'string', nullable: true })
  refundId: string | null = null;

  /** The dispute a dispute journal belongs to: a payment may have several, and each one's money is what its journals sum to. */
  @Property({ type: 'string', nullable: true })
  disputeId: string | null = null;

  /**
   * What the movement was: `payment`, `fee`, `refund`, `refund_reversed`, `refund_failed` (a refund the card scheme
   * rejected after it was carried out), `withdrawal_hold`, `withdrawal_release`, `payout`, the dispute journals
   * (`chargeback`, `chargeback_reversed`, `second_chargeback`, `dispute_won`, and `dispute_share` when refunds settling
   * move a standing chargeback between the seller and the platform), and a live test's fee-free `test_payment` and its
   * automatic `test_refund`.
   */
  @Property({ type: 'string' })
  kind!: string;

  /** Signed integer cents: positive adds to the account, negative takes from it. */
  @Property({ type: new BigIntType('number') })
  amount!: number;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();
}
