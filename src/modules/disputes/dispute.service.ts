import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { applyMove } from '../../platform/lifecycle/apply-move';
import { DISPUTE_LIFECYCLE } from './dispute.lifecycle';
import { moveOf } from '../../platform/lifecycle/lifecycle';
import { bookDisputeJournal } from '../ledger';
import { Payment } from '../payments';
import { Refund, RefundStatus } from '../refunds';
import { CHARGEBACK_STANDS, Dispute } from './dispute.entity';
import { disputeMismatch, sellerShareOf } from './dispute-rules';
import { noticeDisputeMoved, noticeDisputeOpened } from '../notifications';

/** A move of the dispute table (src/modules/disputes/dispute.lifecycle.ts). */
export type DisputeMove = keyof typeof DISPUTE_LIFECYCLE.moves;

/** What the acquirer said about a payment's dispute: open it (an inquiry), or make one of the table's moves. */
export interface DisputeNotice {
  step: 'open' | DisputeMove;
  paymentId: string;
  /** The acquirer's reference of the dispute: every event of one dispute carries the same. */
  reference: string;
  amount: number;
  currency: string;
  reason: string | null;
}

export type DisputeOutcome = { effect: 'opened' | 'moved' | 'nothing-to-do' } | { effect: 'flagged'; problem: string };

/** Debits take the disputed amount from the liable account; credits give it back. */
const DIRECTION: Partial<Record<DisputeMove, 'debit' | 'credit'>> = { chargeBack: 'debit', reverse: 'credit', secondChargeback: 'debit', win: 'credit' };

/** Refunds whose money has gone, or is going, back to the card: a chargeback on top of one is the platform's to contest. */
const REFUND_SENT: readonly RefundStatus[] = [RefundStatus.PROCESSING, RefundStatus.REFUNDED];

export function disputeOf(em: EntityManager, paymentId: string): Promise<Dispute | null> {
  return em.findOne(Dispute, { payment: paymentId });
}

/** Whether a chargeback stands against the payment (its amount is debited): no refund may be requested, approved or sent. */
export async function chargebackStands(em: EntityManager, paymentId: string): Promise<boolean> {
  return (await em.count(Dispute, { payment: paymentId, status: { $in: [...CHARGEBACK_STANDS] } })) > 0;
}

/**
 * Applies one dispute notice in one transaction, under a lock on the payment row, so the notices of one
 * payment, and a refund being sent for it, are applied one at a time. The dispute is created (notified)
 * by its first notice; a chargeback then moves it through the lifecycle, whose journal the move books. A
 * notice that does not fit the payment (never charged, another currency, more than its amount) or the
 * dispute's state (out of order) moves nothing and is flagged.
 */
export async function applyDisputeNotice(em: EntityManager, notice: DisputeNotice): Promise<DisputeOutcome> {
  return em.transactional(async (tx) => {
    const payment = await tx.findOne(Payment, { id: notice.paymentId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!payment) return flagged(`no payment ${notice.paymentId}`);
    const problem = disputeMismatch(payment, notice);
    if (problem) return flagged(problem);

    let dispute = await tx.findOne(Dispute, { payment: payment.id }, { refresh: true });
    const opened = !dispute;
    if (!dispute) {
      // The seller's share is decided when a chargeback lands; until then, the seller is the one concerned.
      dispute = tx.create(Dispute, { payment, amount: notice.amount, sellerShare: notice.amount, currency: payment.currency, reason: notice.reason, acquirerReference: notice.reference });
      await tx.flush();
      // The seller is told in the same transaction (src/modules/notifications/).
      await noticeDisputeOpened(tx, dispute);
    }
    if (notice.step === 'open') return { effect: opened ? 'opened' : 'nothing-to-do' };
    if (dispute.acquirerReference !== notice.reference) return flagged(`a second dispute ${notice.reference} for a payment already disputed as ${dispute.acquirerReference}`);

    const changes: Partial<Dispute> = { updatedAt: new Date(), ...(notice.reason ? { reason: notice.reason } : {}) };
    if (notice.step === 'chargeBack') Object.assign(changes, { amount: notice.amount, ...(await liabilityFor(tx, payment, notice.amount)) });
    else if (notice.amount !== dispute.amount) return flagged(`${notice.step} of ${notice.amount} for a dispute of ${dispute.amount}`);
    // A refund may be sent while a chargeback is reversed: the second chargeback weighs the seller's share again.
    else if (notice.step === 'secondChargeback') Object.assign(changes, await liabilityFor(tx, payment, notice.amount));
    return moveDispute(tx, dispute.id, notice.step, changes);
  });
}

async function moveDispute(tx: EntityManager, id: string, step: DisputeMove, changes: Partial<Dispute>): Promise<DisputeOutcome> {
  const move = moveOf(DISPUTE_LIFECYCLE, step);
  const direction = DIRECTION[step];
  const moved = await applyMove(tx, DISPUTE_LIFECYCLE, Dispute, step, {
    id,
    changes,
    populate: ['payment', 'payment.shop', 'payment.shop.seller'],
    ...(move.journal && direction ? { effects: { journal: (t, d) => bookDisputeJournal(t, d, d.payment.shop.seller, move.journal!, direction) } } : {}),
  });
  if (moved) {
    // A move that decides the dispute (won, lost, closed) is told to the seller in the same transaction.
    await noticeDisputeMoved(tx, moved);
    return { effect: 'moved' };
  }
  const current = await tx.findOneOrFail(Dispute, { id }, { refresh: true });
  // The same event again (a state already reached), or a step that moves no money and does not apply (the
  // defence period of a mere inquiry ended): nothing to do. A money step out of order is for an admin to see.
  if (current.status === move.to || !move.journal) return { effect: 'nothing-to-do' };
  return flagged(`${step} does not fit a dispute that is ${current.status} (out of order or unexpected)`);
}

/**
 * What the seller bears of the chargeback: the disputed amount, less whatever the seller already gave back
 * (or is giving back) of this payment by refunds sent to the acquirer. The platform's dispute account bears
 * the rest, and the dispute is flagged for finance to contest with the latest such refund as evidence: the
 * same money never leaves the seller twice.
 */
async function liabilityFor(tx: EntityManager, payment: Payment, amount: number): Promise<Partial<Dispute>> {
  const sent = await tx.find(Refund, { payment: payment.id, status: { $in: [...REFUND_SENT] } }, { orderBy: { createdAt: 'desc' } });
  const givenBack = sent.reduce((sum, refund) => sum + refund.amount, 0);
  const sellerShare = sellerShareOf(amount, payment.amount, givenBack);
  if (sellerShare === amount) return { sellerShare };
  return { sellerShare, evidenceRefund: sent[0], contestFlaggedAt: new Date() };
}

const flagged = (problem: string): DisputeOutcome => ({ effect: 'flagged', problem });
