import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { applyMove } from '../../platform/lifecycle/apply-move';
import { DISPUTE_LIFECYCLE, type DisputeMove, type DisputeStep } from './dispute.lifecycle';
import { moveOf } from '../../platform/lifecycle/lifecycle';
import { bookDisputePosition } from '../ledger';
import { CheckoutStage, Payment, PaymentStatus } from '../payments';
import { Refund, RefundStatus } from '../refunds';
import { CHARGEBACK_STANDS, Dispute, type DisputeStatus } from './dispute.entity';
import { disputeMismatch, sellerShareOf } from './dispute-rules';
import { foldDisputeFacts, movesBetween } from './dispute-facts';
import { disputeFacts, recordDisputeFact } from './dispute-store';
import { noticeDisputeMoved, noticeDisputeOpened } from '../notifications';

/** What the acquirer said about a payment's dispute: open it (an inquiry), or one of the table's moves. */
export interface DisputeNotice {
  step: DisputeStep;
  paymentId: string;
  /** The acquirer's reference of the dispute: every event of one dispute carries the same; a new one is a new dispute. */
  reference: string;
  amount: number;
  currency: string;
  reason: string | null;
  /** When the acquirer says it happened (its events are put in this order); when it arrived, if it did not say. */
  occurredAt?: Date | null;
}

export type DisputeOutcome = { effect: 'opened' | 'moved' | 'nothing-to-do' } | { effect: 'flagged' | 'waiting'; problem: string };

/** Refunds whose money has gone, or is going, back to the card: a chargeback on top of one is the platform's to contest. */
const REFUND_SENT: readonly RefundStatus[] = [RefundStatus.PROCESSING, RefundStatus.REFUNDED];

/** The payment's latest dispute (a payment may be disputed again after an inquiry closed). */
export function disputeOf(em: EntityManager, paymentId: string): Promise<Dispute | null> {
  return em.findOne(Dispute, { payment: paymentId }, { orderBy: { openedAt: 'desc', id: 'desc' } });
}

/** Of these payments, those a chargeback stands against, in one query (the console's lists load it per request). */
export async function paymentsWithChargebackStanding(em: EntityManager, paymentIds: readonly string[]): Promise<Set<string>> {
  const standing = await em.find(Dispute, { payment: { $in: [...paymentIds] }, status: { $in: [...CHARGEBACK_STANDS] } }, { fields: ['payment'] });
  return new Set(standing.map((dispute) => dispute.payment.id));
}

/** Whether a chargeback stands against the payment (its amount is debited): no refund may be requested, approved or sent. */
export async function chargebackStands(em: EntityManager, paymentId: string): Promise<boolean> {
  return (await em.count(Dispute, { payment: paymentId, status: { $in: [...CHARGEBACK_STANDS] } })) > 0;
}

/**
 * Applies one dispute notice in one transaction, under a lock on the payment row, so the notices of one payment,
 * and its refunds settling, are applied one at a time. The dispute (one per acquirer reference) is created,
 * `notified`, by its first notice, and the notice kept as a fact. Its state is then what all its facts say in the
 * acquirer's order (dispute-facts.ts), reached through the table's moves, each booking its journal: a notice that
 * came before the one it follows waits and is applied, in the same transaction, when that one arrives. A notice
 * that does not fit the payment (never charged, another currency, more than its amount) moves nothing and is flagged.
 */
export async function applyDisputeNotice(em: EntityManager, notice: DisputeNotice): Promise<DisputeOutcome> {
  return em.transactional(async (tx) => {
    const payment = await tx.findOne(Payment, { id: notice.paymentId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!payment) return flagged(`no payment ${notice.paymentId}`);
    // The card is at the acquirer and its authorisation has not reached us yet (a lost answer): the dispute waits for it.
    if (payment.status === PaymentStatus.PENDING && payment.checkoutStage === CheckoutStage.PROCESSING) {
      return waiting(`payment ${payment.id} is not settled here yet: the dispute waits for its authorisation`);
    }
    const problem = disputeMismatch(payment, notice);
    if (problem) return flagged(problem);

    let dispute = await tx.findOne(Dispute, { payment: payment.id, acquirerReference: notice.reference }, { refresh: true });
    const opened = !dispute;
    if (!dispute) {
      // The seller's share is decided when a chargeback lands; until then, the seller is the one concerned.
      dispute = tx.create(Dispute, { payment, amount: notice.amount, sellerShare: notice.amount, currency: payment.currency, reason: notice.reason, acquirerReference: notice.reference });
      await tx.flush();
      // The seller is told in the same transaction (src/modules/notifications/).
      await noticeDisputeOpened(tx, dispute);
    }
    const facts = await disputeFacts(tx, dispute.id);
    const told = facts.some((fact) => fact.step === notice.step);
    const charged = facts.some((fact) => fact.step === 'chargeBack');
    if (!told && notice.step !== 'open' && notice.step !== 'chargeBack' && charged && notice.amount !== dispute.amount) {
      return flagged(`${notice.step} of ${notice.amount} for a dispute of ${dispute.amount}`);
    }
    const fact = { step: notice.step, occurredAt: notice.occurredAt ?? new Date(), arrival: Number.MAX_SAFE_INTEGER };
    const history = foldDisputeFacts(told ? facts : [...facts, fact]);
    if (!told) await recordDisputeFact(tx, dispute.id, { step: notice.step, occurredAt: fact.occurredAt, amount: notice.amount });
    // No move of the table leads there from a decided state: the events that place this one have not all arrived yet
    // (a loss told before the reversal and second chargeback it follows). It waits; the money stays as it is.
    const route = movesBetween(dispute.status, history.status);
    if (!route) return waiting(`${notice.step} does not fit a dispute that is ${dispute.status}: it waits for the events that place it`);

    // The chargeback says how much is disputed (an inquiry may name more, a partial chargeback less).
    const base: Partial<Dispute> = { ...(notice.reason ? { reason: notice.reason } : {}), ...(!told && notice.step === 'chargeBack' ? { amount: notice.amount } : {}) };
    for (const [index, move] of route.entries()) await moveDispute(tx, dispute.id, move, index === 0 ? base : {}, payment);
    if (route.length) return { effect: 'moved' };
    // A step that moves no money (a loss or close of a mere inquiry) is kept, for a chargeback that may follow, and needs no one.
    const movesMoney = notice.step !== 'open' && !!moveOf(DISPUTE_LIFECYCLE, notice.step).journal;
    if (movesMoney && history.waiting.some((w) => w.step === notice.step)) return waiting(`${notice.step} came before the event it follows: the dispute is ${dispute.status}`);
    return { effect: opened && notice.step === 'open' ? 'opened' : 'nothing-to-do' };
  });
}

/** One move of the table, with its journal (the dispute's money brought to what the new state says) and, when it decides the dispute, the seller's notice. */
async function moveDispute(tx: EntityManager, id: string, step: DisputeMove, base: Partial<Dispute>, payment: Payment): Promise<void> {
  const move = moveOf(DISPUTE_LIFECYCLE, step);
  const current = await tx.findOneOrFail(Dispute, { id }, { refresh: true });
  const amount = base.amount ?? current.amount;
  // Each debit weighs the seller's share anew: a refund may have been sent meanwhile.
  const liability = step === 'chargeBack' || step === 'secondChargeback' ? await liabilityFor(tx, payment, amount) : {};
  const standing = CHARGEBACK_STANDS.includes(move.to as DisputeStatus);
  const moved = await applyMove(tx, DISPUTE_LIFECYCLE, Dispute, step, {
    id,
    changes: { updatedAt: new Date(), ...base, ...liability },
    populate: ['payment', 'payment.shop', 'payment.shop.seller'],
    ...(move.journal ? { effects: { journal: (t, d) => bookDisputePosition(t, d, d.payment.shop.seller, move.journal!, standing) } } : {}),
  });
  if (!moved) throw new Error(`dispute ${id} left ${current.status} while its payment was locked`);
  // A move that decides the dispute (won, lost, closed) is told to the seller in the same transaction.
  await noticeDisputeMoved(tx, moved);
}

/**
 * A refund of the payment settled, failed or was reversed: the share each standing chargeback leaves with the
 * seller is weighed again (what the seller has given back changed), and the change is booked as `dispute_share`
 * between the seller's balance and the platform's dispute account. Handed to the refund moves, which call it in
 * their own transaction, under the payment's lock.
 */
export async function reweighDisputes(tx: EntityManager, paymentId: string): Promise<void> {
  const payment = await tx.findOneOrFail(Payment, { id: paymentId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const standing = await tx.find(Dispute, { payment: paymentId, status: { $in: [...CHARGEBACK_STANDS] } }, { populate: ['payment', 'payment.shop', 'payment.shop.seller'], refresh: true });
  for (const dispute of standing) {
    const liability = await liabilityFor(tx, payment, dispute.amount);
    if (liability.sellerShare === dispute.sellerShare) continue;
    Object.assign(dispute, liability, { updatedAt: new Date() });
    await bookDisputePosition(tx, dispute, dispute.payment.shop.seller, 'dispute_share', true);
  }
}

/**
 * What the seller bears of the chargeback: the disputed amount, less whatever the seller already gave back
 * (or is giving back) of this payment by refunds sent to the acquirer. The platform's dispute account bears
 * the rest, and the dispute is flagged for finance to contest with the latest such refund as evidence: the
 * same money never leaves the seller twice.
 */
async function liabilityFor(tx: EntityManager, payment: Payment, amount: number): Promise<Partial<Dispute> & { sellerShare: number }> {
  const sent = await tx.find(Refund, { payment: payment.id, status: { $in: [...REFUND_SENT] } }, { orderBy: { createdAt: 'desc' } });
  const givenBack = sent.reduce((sum, refund) => sum + refund.amount, 0);
  const sellerShare = sellerShareOf(amount, payment.amount, givenBack);
  if (sellerShare === amount) return { sellerShare };
  return { sellerShare, evidenceRefund: sent[0], contestFlaggedAt: new Date() };
}

const flagged = (problem: string): DisputeOutcome => ({ effect: 'flagged', problem });
const waiting = (problem: string): DisputeOutcome => ({ effect: 'waiting', problem });
