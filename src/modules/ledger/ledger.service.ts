import type { EntityManager } from '@mikro-orm/postgresql';
import { prefixedId } from '../../shared/random-id';
import { feeFor } from './fee';
import type { Cents } from '../../shared/cents';
import { balanceFigures } from './balance-checkpoints';
import { LedgerAccount, LedgerEntry } from './ledger-entry.entity';
import { selectDisputeBooked } from './ledger-store';

/**
 * What the journals read of the rows other modules own, declared here so the ledger names none of their entities:
 * ids, and amounts in integer cents. A payment, seller, refund, withdrawal or dispute entity fits as it is.
 */
interface Row {
  id: string;
}
interface RefundToBook extends Row {
  amount: number;
}
interface WithdrawalToBook extends Row {
  amount: number;
}
/** The disputed amount and the seller's share of it, and the disputed payment. */
interface DisputeToBook extends Row {
  amount: number;
  sellerShare: number;
  payment: Row;
}

interface Posting {
  account: LedgerAccount;
  kind: string;
  amount: number;
  seller?: Row;
}

/** What a journal belongs to: its payment, withdrawal, refund or dispute. */
interface JournalOwner {
  payment?: Row;
  withdrawal?: Row;
  refund?: Row;
  dispute?: Row;
}

/**
 * Writes one journal: postings that must sum to zero (the database checks it again at commit).
 * Zero postings are skipped: the ledger holds movements only.
 */
export function postJournal(tx: EntityManager, owner: JournalOwner, postings: Posting[]): string {
  if (postings.reduce((sum, p) => sum + p.amount, 0) !== 0) throw new Error('journal does not balance');
  const journalId = newJournalId();
  const links = {
    paymentId: owner.payment?.id ?? null,
    withdrawalId: owner.withdrawal?.id ?? null,
    refundId: owner.refund?.id ?? null,
    disputeId: owner.dispute?.id ?? null,
  };
  for (const p of postings.filter((posting) => posting.amount !== 0)) {
    tx.create(LedgerEntry, { journalId, account: p.account, kind: p.kind, amount: p.amount, sellerId: p.seller?.id ?? null, ...links });
  }
  return journalId;
}

/** One line of a completed payment's journal; `toSeller` lines go to the payment's seller. */
export interface CompletionPosting {
  account: LedgerAccount;
  kind: string;
  amount: number;
  toSeller: boolean;
}

/**
 * A completed payment: the customer's money reaches the seller's balance, and the fee (fee.ts) moves from
 * the seller's balance to our fee revenue. The seller sees one credit and one fee entry. Written with the
 * move to `completed` by one statement (checkout/completion-statement.ts).
 */
export function completedPaymentPostings(amount: number): CompletionPosting[] {
  const fee = feeFor(amount);
  return [
    { account: LedgerAccount.CUSTOMER_FUNDS, kind: 'payment', amount: -amount, toSeller: false },
    { account: LedgerAccount.SELLER_BALANCE, kind: 'payment', amount, toSeller: true },
    { account: LedgerAccount.SELLER_BALANCE, kind: 'fee', amount: -fee, toSeller: true },
    { account: LedgerAccount.FEE_REVENUE, kind: 'fee', amount: fee, toSeller: false },
  ];
}

/**
 * A completed live test (the payment table's `completeTest`): the customer's money reaches the seller's balance
 * as a `test_payment` credit, with no fee. Its automatic refund takes exactly this back (bookLiveTestRefund).
 */
export function liveTestPostings(amount: number): CompletionPosting[] {
  return [
    { account: LedgerAccount.CUSTOMER_FUNDS, kind: 'test_payment', amount: -amount, toSeller: false },
    { account: LedgerAccount.SELLER_BALANCE, kind: 'test_payment', amount, toSeller: true },
  ];
}

/** A completion's postings, by the journal its move declares (the payment table's `complete` and `completeTest`). */
export function completionPostings(journal: string, amount: number): CompletionPosting[] {
  if (journal === 'payment') return completedPaymentPostings(amount);
  if (journal === 'test_payment') return liveTestPostings(amount);
  throw new Error(`no completion postings for the journal "${journal}"`);
}

/** A new journal's id: the entries of one money movement share it. */
export const newJournalId = () => prefixedId('jrn', 20);

/** A seller's balance: the sum of their entries (the last checkpoint of that sum plus the entries after it), never a counter kept apart from them. */
export async function sellerBalance(em: EntityManager, sellerId: string): Promise<Cents> {
  return (await balanceFigures(em, [sellerId])).get(sellerId)!.available;
}

/**
 * A refunded payment: the refund's amount goes back from the seller's balance to the customer. The fee
 * stays with us (fee_revenue is not touched): the acquirer's costs of the charge are not returned either.
 * The (refund, kind, account) unique index makes a second debit for one refund impossible.
 */
export function bookRefund(tx: EntityManager, payment: Row, seller: Row, refund: RefundToBook): void {
  postJournal(tx, { payment, refund }, [
    { account: LedgerAccount.SELLER_BALANCE, kind: 'refund', amount: -refund.amount, seller },
    { account: LedgerAccount.CUSTOMER_FUNDS, kind: 'refund', amount: refund.amount },
  ]);
}

/** A live test's automatic refund (the refund table's `succeedTest`): the fee-free credit goes back, so the test nets to zero. */
export function bookLiveTestRefund(tx: EntityManager, payment: Row, seller: Row, refund: RefundToBook): void {
  postJournal(tx, { payment, refund }, [
    { account: LedgerAccount.SELLER_BALANCE, kind: 'test_refund', amount: -refund.amount, seller },
    { account: LedgerAccount.CUSTOMER_FUNDS, kind: 'test_refund', amount: refund.amount },
  ]);
}

/** A refund the acquirer reversed (REFUNDED_REVERSED): the money is back, and so is the seller's balance. */
export function bookRefundReversal(tx: EntityManager, payment: Row, seller: Row, refund: RefundToBook): void {
  postJournal(tx, { payment, refund }, [
    { account: LedgerAccount.CUSTOMER_FUNDS, kind: 'refund_reversed', amount: -refund.amount },
    { account: LedgerAccount.SELLER_BALANCE, kind: 'refund_reversed', amount: refund.amount, seller },
  ]);
}

/**
 * A refund the card scheme rejected after the acquirer had carried it out (Adyen's REFUND_FAILED after REFUND): the
 * customer never got the money, so it comes back to the seller's balance, as a reversal does.
 */
export function bookRefundFailure(tx: EntityManager, payment: Row, seller: Row, refund: RefundToBook): void {
  postJournal(tx, { payment, refund }, [
    { account: LedgerAccount.CUSTOMER_FUNDS, kind: 'refund_failed', amount: -refund.amount },
    { account: LedgerAccount.SELLER_BALANCE, kind: 'refund_failed', amount: refund.amount, seller },
  ]);
}

/**
 * A dispute's money brought to what its state says (docs/decisions/0020-acquirer-events-as-facts.md): while the
 * chargeback stands the disputed amount has gone to the customer, the seller's balance bearing the dispute's
 * `sellerShare` (which may take it negative; docs/acquirers.md) and the platform's dispute account the rest;
 * otherwise nothing. The journal, named `kind` (the move's, or `dispute_share`), books the difference between that
 * and what the dispute's journals already hold, so applying a state twice books nothing twice, and a late event
 * or a refund settling meanwhile books exactly what changed. The fee is kept either way, as acquirers keep theirs.
 * Called under the payment's row lock.
 */
export async function bookDisputePosition(tx: EntityManager, dispute: DisputeToBook, seller: Row, kind: string, standing: boolean): Promise<void> {
  await tx.flush();
  const booked = await selectDisputeBooked(tx, dispute.id);
  const share = standing ? dispute.sellerShare : 0;
  const disputed = standing ? dispute.amount : 0;
  postJournal(tx, { payment: dispute.payment, dispute }, [
    { account: LedgerAccount.SELLER_BALANCE, kind, amount: -share - booked.seller, seller },
    { account: LedgerAccount.PLATFORM_DISPUTES, kind, amount: -(disputed - share) - booked.platform },
    { account: LedgerAccount.CUSTOMER_FUNDS, kind, amount: disputed - booked.customer },
  ]);
}

/** A requested withdrawal: the amount leaves the available balance at once, held until paid or rejected. */
export function bookWithdrawalHold(tx: EntityManager, withdrawal: WithdrawalToBook, seller: Row): void {
  postJournal(tx, { withdrawal }, [
    { account: LedgerAccount.SELLER_BALANCE, kind: 'withdrawal_hold', amount: -withdrawal.amount, seller },
    { account: LedgerAccount.WITHDRAWALS_PAYABLE, kind: 'withdrawal_hold', amount: withdrawal.amount },
  ]);
}

/** A rejected withdrawal: the hold is released by a new, opposite entry (nothing is ever edited). */
export function bookWithdrawalRelease(tx: EntityManager, withdrawal: WithdrawalToBook, seller: Row): void {
  postJournal(tx, { withdrawal }, [
    { account: LedgerAccount.WITHDRAWALS_PAYABLE, kind: 'withdrawal_release', amount: -withdrawal.amount },
    { account: LedgerAccount.SELLER_BALANCE, kind: 'withdrawal_release', amount: withdrawal.amount, seller },
  ]);
}

/** A paid withdrawal: the held money leaves us for the seller's bank account. */
export function bookPayout(tx: EntityManager, withdrawal: WithdrawalToBook): void {
  postJournal(tx, { withdrawal }, [
    { account: LedgerAccount.WITHDRAWALS_PAYABLE, kind: 'payout', amount: -withdrawal.amount },
    { account: LedgerAccount.PAYOUTS, kind: 'payout', amount: withdrawal.amount },
  ]);
}

export { balanceFigures, type BalanceFigures } from './balance-checkpoints';
