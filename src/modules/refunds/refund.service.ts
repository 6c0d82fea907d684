import { LockMode, raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { type Admin, reviewQueue } from '../admins';
import { optionalReason, validReason } from '../../shared/reason';
import { moveAuditor, recordAudit } from '../audit';
import { bookLiveTestRefund, bookRefund, bookRefundFailure, bookRefundReversal } from '../ledger';
import { Payment, movePayment, PaymentStatus, findPayment, findSellerPayment, paymentPayload } from '../payments';
import { applyMove } from '../../platform/lifecycle/apply-move';
import { moveOf } from '../../platform/lifecycle/lifecycle';
import { REFUND_LIFECYCLE } from './refund.lifecycle';
import { applyReviewMove } from '../../platform/lifecycle/review-move';
import type { CardProcessor, RefundLookup } from '../../platform/processor/card-processor';
import { domainError } from '../../shared/errors';
import { REFUND_REVIEW_WINDOW_MS } from '../../shared/limits';
import { Refund, RefundStatus } from './refund.entity';
import { fullyRefunded, refundableRemaining, refundAmountOf } from './refund-rules';
import { refundPayload } from './refund-payload';
import { emit } from '../webhooks';
import { noticeRefund, queueRefundNotice, queueRefundRequestedMail } from '../notifications';
import { newTrackingToken, noticeTrackingToken } from './refund-tracking-token';
import type { Page } from '../../shared/pagination';
import type { ListOrder } from '../../shared/list-order';

/**
 * Whether a chargeback stands against the payment: then no refund may be requested, approved or sent. Disputes
 * answer it; it is handed in at start (RefundJobs.chargebackStands), since disputes read refunds, not the reverse.
 */
export type ChargebackCheck = (em: EntityManager, paymentId: string) => Promise<boolean>;

export function refundAgeSeconds(refund: Refund, now = Date.now()): number {
  return Math.max(0, Math.floor((now - refund.createdAt.getTime()) / 1000));
}

/** Still waiting for review after the spec's 24 hours. */
export function isPastReviewWindow(refund: Refund, now = Date.now()): boolean {
  return refund.status === RefundStatus.REQUESTED && now - refund.createdAt.getTime() > REFUND_REVIEW_WINDOW_MS;
}

/**
 * Support records a seller's refund request (spec: there is no refund endpoint; sellers write to support),
 * or the seller asks from the dashboard (admin null, `ownSeller` theirs): either way it joins the admins' queue.
 * Only a completed payment with no chargeback standing, for any amount up to what remains of it (the whole
 * remainder when `amount` is not given): requests still open count, so several requests, concurrent or not,
 * never add up to more than was paid. Checked here under the payment's row lock for a clear answer, and by
 * the `refunds_within_payment` trigger whatever runs.
 */
export async function requestRefund(
  em: EntityManager,
  chargebackStands: ChargebackCheck,
  admin: Admin | null,
  paymentId: string,
  reason: string,
  ownSeller: string | null = null,
  amount: number | null = null,
): Promise<Refund> {
  const text = validReason(reason);
  // A seller's request from the dashboard (admin null) names its own seller: a payment of any of its shops, past
  // or present (docs/dashboard.md, "History across shops"); another seller's payment is not found.
  if (!admin && !ownSeller) throw domainError('FORBIDDEN');
  const found = admin ? await findPayment(em, paymentId, null) : await findSellerPayment(em, paymentId, ownSeller!);
  return em.transactional(async (tx) => {
    const payment = await tx.findOneOrFail(Payment, { id: found.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (payment.status !== PaymentStatus.COMPLETED) throw domainError('REFUND_PAYMENT_NOT_COMPLETED', payment.status);
    if (await chargebackStands(tx, payment.id)) throw domainError('REFUND_CHARGEBACK_STANDS');
    const refunds = await tx.find(Refund, { payment: payment.id }, { fields: ['amount', 'status'] });
    const refundAmount = refundAmountOf(amount, refundableRemaining(payment.amount, refunds));
    // The customer's link to follow the refund (src/modules/refunds/refund-tracking.ts), mailed with the request.
    const tracking = payment.customerEmail ? newTrackingToken() : null;
    const refund = tx.create(Refund, { payment: payment.id, amount: refundAmount, reason: text, requestedBy: admin?.id ?? null, trackingTokenHash: tracking?.hash ?? null });
    if (tracking) {
      await tx.populate(payment, ['shop']);
      await queueRefundRequestedMail(tx, { id: refund.id, amount: refundAmount, payment }, tracking.token);
    }
    // The seller's own request is not an admin action: the refund row (requested_by null) is its record.
    if (admin) recordAudit(tx, admin, { action: 'refund.requested', targetType: 'refund', targetId: refund.id, reason: text, details: { paymentId: payment.id, amount: refundAmount } });
    return refund;
  });
}

/**
 * requested -> approved (the refund table's `approve`: four eyes, audited), through the review move shared
 * with withdrawals: of two admins approving at once, one wins and the other is told the refund is no longer
 * requested, and no race lets a requester approve. The caller then hands the refund to the refund jobs.
 */
export async function approveRefund(em: EntityManager, chargebackStands: ChargebackCheck, admin: Admin, refundId: string, note?: string | null): Promise<Refund> {
  const refund = await findRefund(em, refundId);
  // Checked again when the refund is sent (executeRefund), under the payment's lock: a chargeback may land in between.
  if (await chargebackStands(em, refund.payment.id)) throw domainError('REFUND_CHARGEBACK_STANDS');
  return reviewRefund(em, admin, refundId, 'approve', {}, optionalReason(note));
}

/** requested -> rejected, with the reason the seller will be told. */
export async function rejectRefund(em: EntityManager, admin: Admin, refundId: string, reason: string): Promise<Refund> {
  const text = validReason(reason);
  return reviewRefund(em, admin, refundId, 'reject', { rejectionReason: text }, text);
}

/**
 * The review move: its audit entry and the seller's notification of the decision (src/modules/notifications/) are
 * effects the refund table declares, written in the move's own transaction.
 */
function reviewRefund(em: EntityManager, admin: Admin, refundId: string, move: 'approve' | 'reject', changes: Partial<Refund>, reason: string | null): Promise<Refund> {
  return applyReviewMove(em, REFUND_LIFECYCLE, Refund, move, {
    id: refundId,
    by: moveAuditor(admin),
    reason,
    changes: { ...changes, reviewedBy: admin, reviewedAt: new Date() },
    notice: (tx, refund, kind) => noticeRefund(tx, refund, kind as 'refund-approved' | 'refund-rejected', refund.rejectionReason),
    notFound: () => domainError('REFUND_NOT_FOUND'),
    selfApproval: () => domainError('SELF_APPROVAL_NOT_ALLOWED', 'refund request'),
    conflict: (spec, status) => domainError('REFUND_STATE_CONFLICT', spec.verb!, status),
  });
}

export async function findRefund(em: EntityManager, id: string): Promise<Refund> {
  const refund = await em.findOne(Refund, { id });
  if (!refund) throw domainError('REFUND_NOT_FOUND');
  return refund;
}

/** The refund queue: oldest first (unless `order` says otherwise), so the ones nearest their 24-hour deadline come first. */
export function listRefunds(
  em: EntityManager,
  filter: { status?: RefundStatus | null; paymentId?: string | null },
  page?: number | null,
  limit?: number | null,
  order?: ListOrder | null,
): Promise<Page<Refund>> {
  return reviewQueue(em, Refund, { status: filter.status, payment: filter.paymentId }, page, limit, order);
}

/**
 * Disputes' answer to a refund of the payment settling, failing or being reversed: the share of a standing chargeback
 * the seller bears is weighed again, in the refund move's transaction. Handed in, since disputes read refunds.
 */
export type DisputeReweigh = (tx: EntityManager, paymentId: string) => Promise<void>;

export interface RefundExecutionDeps {
  processor: CardProcessor;
  logger: Logger;
  /** A `processing` claim older than this belongs to a worker that died; it is taken over. */
  processingTimeoutMs: number;
  /** The public base URL, for the payment payload of refund webhook events. */
  baseUrl: string;
  reweighDisputes: DisputeReweigh;
}

/** Sending a refund also asks whether a chargeback stands (checked under the payment's lock). */
export type RefundSendingDeps = RefundExecutionDeps & { chargebackStands: ChargebackCheck };

export type ExecutionOutcome = 'refunded' | 'failed' | 'not-claimed' | 'outcome-unknown' | 'awaiting-acquirer';

/**
 * Carries out one approved refund; safe to call any number of times, from any instance, at once:
 *  1. claim it (approved -> processing, or a stale `processing`) with a conditional UPDATE; the loser stops;
 *  2. unless a chargeback stands (then it fails, `chargeback_stands`: the money went back already), call the
 *     acquirer with the refund id as idempotency key (intent is persisted before the call);
 *  3. in ONE transaction: refund -> refunded (conditional), payment completed -> refunded (the state
 *     machine's conditional UPDATE, `completed_at` kept), and the ledger journal (seller debited the full
 *     amount, customer credited). The ledger's (refund, kind, account) unique index is the last guard.
 * A decline marks the refund `failed`; an exception (outcome unknown) leaves it `processing` for a retry.
 */
export async function executeRefund(em: EntityManager, deps: RefundSendingDeps, refundId: string): Promise<ExecutionOutcome> {
  const claim = { id: refundId, changes: { claimedAt: new Date(), attempts: raw('"attempts" + 1') } as Partial<Refund> };
  const claimed =
    (await applyMove(em, REFUND_LIFECYCLE, Refund, 'claim', claim)) ??
    (await applyMove(em, REFUND_LIFECYCLE, Refund, 'reclaim', { ...claim, where: staleUnacknowledgedClaim(deps) }));
  if (!claimed) return 'not-claimed';

  const refund = await em.findOneOrFail(Refund, { id: refundId }, { populate: ['payment'], refresh: true });
  const payment = refund.payment;
  if (!payment.processorReference) return failRefund(em, deps, refund, 'no_authorization_reference');
  if (await chargebackStandsLocked(em, deps.chargebackStands, payment.id)) return failRefund(em, deps, refund, CHARGEBACK_STANDS_REASON);

  let result;
  try {
    result = await deps.processor.refund({ refundId, paymentId: payment.id, reference: payment.processorReference, amount: refund.amount, currency: payment.currency });
  } catch (error) {
    deps.logger.error({ refundId, paymentId: payment.id, err: (error as Error).message }, 'refund outcome unknown: it stays processing and will be retried');
    return 'outcome-unknown';
  }
  if (result.kind === 'declined') return failRefund(em, deps, refund, result.reason);
  if (result.kind === 'pending') return awaitAcquirer(em, deps, refund, result.reference);
  return bookRefunded(em, deps, refund, result.reference);
}

/** Why a refund approved before a chargeback landed is not sent: the issuer has taken the money back already. */
export const CHARGEBACK_STANDS_REASON = 'chargeback_stands';

/**
 * Whether a chargeback stands, read under a share lock on the payment row, which a dispute notice holds
 * exclusively while it books (dispute.service.ts): either the chargeback landed first and the refund is not
 * sent, or this refund is already `processing` when the chargeback is booked, which then goes to the platform.
 */
function chargebackStandsLocked(em: EntityManager, chargebackStands: ChargebackCheck, paymentId: string): Promise<boolean> {
  return em.transactional(async (tx) => {
    await tx.findOneOrFail(Payment, { id: paymentId }, { lockMode: LockMode.PESSIMISTIC_READ, fields: ['id'] });
    return chargebackStands(tx, paymentId);
  });
}

/**
 * Reconciliation's answer for a refund left `processing` (docs/checkout.md, "Reconciliation"), through the
 * same moves as a live answer: refunded -> booked below; declined -> failed; never received -> back to
 * `approved`, so the refund jobs send it again under the same idempotency key (it cannot refund twice).
 */
export async function settleLookedUpRefund(em: EntityManager, deps: RefundExecutionDeps, refundId: string, found: RefundLookup): Promise<ExecutionOutcome | 'requeued'> {
  const refund = await em.findOneOrFail(Refund, { id: refundId }, { populate: ['payment'], refresh: true });
  if (found.kind === 'refunded') return bookRefunded(em, deps, refund, found.reference);
  if (found.kind === 'declined') return failRefund(em, deps, refund, found.reason);
  const requeued = await applyMove(em, REFUND_LIFECYCLE, Refund, 'requeue', { id: refundId, changes: { needsAttentionAt: null } });
  if (requeued) deps.logger.warn({ refundId }, 'the acquirer never received the refund: it will be sent again');
  return requeued ? 'requeued' : 'not-claimed';
}

/**
 * In ONE transaction, under the payment's row lock (so two refunds of one payment settle one after the other):
 * refund -> refunded (conditional on `processing`) with its journal (the seller debited its amount) and its
 * `payment.refunded` event, and the payment completed -> refunded when this refund completes its amount. The
 * payment moves first, so the event shows it as it ends up. Whoever gets here first (the job, reconciliation
 * or a notification) books it; the others find nothing.
 */
async function bookRefunded(em: EntityManager, deps: RefundExecutionDeps, refund: Refund, reference: string): Promise<ExecutionOutcome> {
  const refundId = refund.id;
  const paymentId = refund.payment.id;
  const booked = await em.transactional(async (tx) => {
    const payment = await tx.findOneOrFail(Payment, { id: paymentId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    const current = await tx.findOneOrFail(Refund, { id: refundId }, { refresh: true });
    if (current.status !== RefundStatus.PROCESSING) return false;
    const refunded = await tx.find(Refund, { payment: paymentId, status: RefundStatus.REFUNDED }, { fields: ['amount'] });
    if (fullyRefunded(payment.amount, [...refunded.map((r) => r.amount), current.amount])) {
      if (!(await movePayment(tx, 'refund', { id: paymentId, readBack: false }))) throw new Error(`payment ${paymentId} is not completed: refund ${refundId} cannot be booked`);
    }
    // A live test's refund takes back its fee-free credit on the test journal (succeedTest), any other the seller's money.
    const book = payment.test ? bookLiveTestRefund : bookRefund;
    const done = await applyMove(tx, REFUND_LIFECYCLE, Refund, payment.test ? 'succeedTest' : 'succeed', {
      id: refundId,
      changes: { refundedAt: new Date(), processorReference: reference, needsAttentionAt: null },
      populate: ['payment', 'payment.shop', 'payment.shop.seller'],
      effects: {
        journal: (t, r) => book(t, r.payment, r.payment.shop.seller, r),
        event: (t, r, type) => emit(t, { payment: r.payment, type: type as 'payment.refunded', payload: paymentPayload(r.payment, deps.baseUrl), refund: refundPayload(r) }),
        // The customer's refund notice, when the payment has an address (src/modules/notifications/).
        receipt: (t, r, kind) => queueRefundNotice(t, r, kind as 'refund-notice', () => noticeTrackingToken(t, r.id)),
      },
    });
    if (!done) throw new Error(`refund ${refundId} left processing while its payment was locked`);
    await deps.reweighDisputes(tx, paymentId);
    return true;
  });
  if (booked) deps.logger.info({ refundId, paymentId, amount: refund.amount }, 'refund carried out');
  return booked ? 'refunded' : 'not-claimed';
}

/**
 * The acquirer took the refund and will notify the outcome (Adyen's REFUND notification): the refund stays
 * `processing` with the acquirer's reference; settleNotifiedRefund books it or fails it then.
 */
async function awaitAcquirer(em: EntityManager, deps: RefundExecutionDeps, refund: Refund, reference: string): Promise<ExecutionOutcome> {
  await em.nativeUpdate(Refund, { id: refund.id, status: RefundStatus.PROCESSING }, { processorReference: reference });
  deps.logger.info({ refundId: refund.id, paymentId: refund.payment.id, processorReference: reference }, 'refund received by the acquirer: waiting for its notification');
  return 'awaiting-acquirer';
}

/** What a notification about a refund did: settled it, nothing (told again, or superseded), or why it waits or is flagged. */
export type NotifiedRefundOutcome = { effect: 'settled' | 'nothing-to-do' } | { effect: 'waiting' | 'flagged'; problem: string };

/**
 * The acquirer's notification of a refund's outcome (Adyen REFUND / REFUND_FAILED), through the same moves as a live
 * answer; whoever arrives first settles it, the other finds nothing to do. Whatever order they come in, the refund
 * ends where the acquirer's events put it: a failure after success (the card scheme rejected a refund carried out)
 * gives the seller the money back and the payment may be refunded again; a success told after that failure, or
 * after a reversal, changes nothing. An outcome for a refund not sent yet waits until it is.
 */
export async function settleNotifiedRefund(em: EntityManager, deps: RefundExecutionDeps, refundId: string, outcome: Exclude<RefundLookup, { kind: 'not_found' }>): Promise<NotifiedRefundOutcome> {
  // The status is read before the payment's lock is taken. A move that finds the refund moved on under the lock (its
  // success booked by the live answer meanwhile) has changed nothing, so the outcome is weighed again where it stands.
  for (let weighing = 0; weighing < WEIGHINGS; weighing++) {
    const settled = await settleAsItStands(em, deps, refundId, outcome);
    if (settled !== MOVED_ON) return settled;
  }
  return { effect: 'waiting', problem: `refund ${refundId} kept moving while its outcome was applied` };
}

/** How often a notified outcome is weighed against a refund that moves on under it before it is tried later. */
const WEIGHINGS = 3;
const MOVED_ON = Symbol('the refund moved on before its lock was taken');

async function settleAsItStands(em: EntityManager, deps: RefundExecutionDeps, refundId: string, outcome: Exclude<RefundLookup, { kind: 'not_found' }>): Promise<NotifiedRefundOutcome | typeof MOVED_ON> {
  const refund = await em.findOne(Refund, { id: refundId }, { populate: ['payment'], refresh: true });
  if (!refund) return { effect: 'nothing-to-do' };
  const settledIf = (executed: ExecutionOutcome) => (executed === 'not-claimed' ? MOVED_ON : { effect: 'settled' as const });
  switch (refund.status) {
    case RefundStatus.PROCESSING:
      return settledIf(outcome.kind === 'refunded' ? await bookRefunded(em, deps, refund, outcome.reference) : await failRefund(em, deps, refund, outcome.reason));
    case RefundStatus.REFUNDED:
      return outcome.kind === 'refunded' ? { effect: 'nothing-to-do' } : settledIf(await failRefundAfterSuccess(em, deps, refund, outcome.reason));
    case RefundStatus.REQUESTED:
    case RefundStatus.APPROVED:
      return { effect: 'waiting', problem: `refund ${refundId} is ${refund.status}: its outcome waits until it is sent` };
    case RefundStatus.REJECTED:
      return { effect: 'flagged', problem: `an outcome for refund ${refundId}, which was rejected and never sent` };
    default:
      return { effect: 'nothing-to-do' };
  }
}

/**
 * refunded -> failed (the refund table's `failAfterRefund`): the card scheme rejected a refund the acquirer had carried
 * out, so the customer never got the money. In ONE transaction, under the payment's lock: the seller is credited back
 * (journal `refund_failed`), a refunded payment is completed again (refundable again), the seller is told (notice and
 * `refund.failed` event), and a standing chargeback's share is weighed again. Logged as an error for finance.
 */
async function failRefundAfterSuccess(em: EntityManager, deps: RefundExecutionDeps, refund: Refund, reason: string): Promise<ExecutionOutcome> {
  const paymentId = refund.payment.id;
  const failed = await em.transactional(async (tx) => {
    const payment = await tx.findOneOrFail(Payment, { id: paymentId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    const current = await tx.findOneOrFail(Refund, { id: refund.id }, { refresh: true });
    if (current.status !== RefundStatus.REFUNDED) return false;
    if (payment.status === PaymentStatus.REFUNDED) await movePayment(tx, 'reverseRefund', { id: paymentId, readBack: false });
    const moved = await applyMove(tx, REFUND_LIFECYCLE, Refund, 'failAfterRefund', {
      id: refund.id,
      changes: { failureReason: reason, failedAt: new Date() },
      populate: ['payment', 'payment.shop', 'payment.shop.seller'],
      effects: {
        journal: (t, r) => bookRefundFailure(t, r.payment, r.payment.shop.seller, r),
        event: (t, done, type) => emitRefundFailed(t, deps, done, type),
        notice: noticeRefundFailed,
      },
    });
    if (!moved) throw new Error(`refund ${refund.id} left refunded while its payment was locked`);
    await deps.reweighDisputes(tx, paymentId);
    return true;
  });
  if (!failed) return 'not-claimed';
  deps.logger.error({ refundId: refund.id, paymentId, amount: refund.amount, reason }, 'a refund failed after it was carried out: the seller is credited back and the customer did not get the money');
  return 'failed';
}

/** The `refund.failed` event of a refund that failed, in the move's transaction. */
function emitRefundFailed(tx: EntityManager, deps: RefundExecutionDeps, refund: Refund, type: string): Promise<unknown> {
  return emit(tx, { payment: refund.payment, type: type as 'refund.failed', payload: paymentPayload(refund.payment, deps.baseUrl), refund: refundPayload(refund) });
}

/** The seller's notice of a refund that failed, with the acquirer's reason, in the move's transaction (src/modules/notifications/). */
const noticeRefundFailed = (tx: EntityManager, refund: Refund, kind: string): Promise<boolean> => noticeRefund(tx, refund, kind as 'refund-failed', refund.failureReason);

export type ReversalOutcome = { effect: 'moved' | 'nothing-to-do' } | { effect: 'flagged' | 'waiting'; problem: string };

/**
 * The acquirer reversed a refund it had carried out (Adyen's REFUNDED_REVERSED: the card's bank sent it
 * back): in ONE transaction the refund goes `refunded -> reversed` and the payment `refunded -> completed`
 * with the journal crediting the seller back, and a standing chargeback's share is weighed again. The payment
 * may then be refunded again. A reversal that comes before the refund's success waits for it; one of a refund
 * whose money is already back (failed after success) changes nothing; one whose amount or currency does not fit
 * the refund moves nothing and is flagged.
 */
export async function reverseRefund(em: EntityManager, deps: Pick<RefundExecutionDeps, 'reweighDisputes'>, refundId: string, money: { amount: number; currency: string }): Promise<ReversalOutcome> {
  const refund = await em.findOne(Refund, { id: refundId }, { populate: ['payment'], refresh: true });
  if (!refund) return { effect: 'flagged', problem: `no refund ${refundId}` };
  if (money.amount !== refund.amount || money.currency.toLowerCase() !== refund.payment.currency) {
    return { effect: 'flagged', problem: `reversal of ${money.amount} ${money.currency} for a refund of ${refund.amount} ${refund.payment.currency}` };
  }
  return em.transactional(async (tx): Promise<ReversalOutcome> => {
    // Under the payment's lock, as every move to or from `refunded` is: the refund's state cannot change meanwhile.
    const payment = await tx.findOneOrFail(Payment, { id: refund.payment.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    const current = await tx.findOneOrFail(Refund, { id: refundId }, { refresh: true });
    if (current.status === RefundStatus.REVERSED) return { effect: 'nothing-to-do' };
    if (current.status === RefundStatus.FAILED && current.refundedAt) return { effect: 'nothing-to-do' };
    if (NOT_YET_CARRIED_OUT.includes(current.status)) return { effect: 'waiting', problem: `a reversal of refund ${refundId}, which is ${current.status}: it waits for the refund's success` };
    if (current.status !== RefundStatus.REFUNDED) return { effect: 'flagged', problem: `a reversal of a refund that is ${current.status}` };
    // A refunded payment is completed again: it is no longer refunded in full.
    if (payment.status === PaymentStatus.REFUNDED) await movePayment(tx, 'reverseRefund', { id: payment.id, readBack: false });
    await applyMove(tx, REFUND_LIFECYCLE, Refund, 'reverse', {
      id: refundId,
      changes: { reversedAt: new Date() },
      populate: ['payment', 'payment.shop', 'payment.shop.seller'],
      effects: { journal: (t, r) => bookRefundReversal(t, r.payment, r.payment.shop.seller, r) },
    });
    await deps.reweighDisputes(tx, payment.id);
    return { effect: 'moved' };
  });
}

/** A refund the acquirer has not carried out yet: an event that follows its success waits. */
const NOT_YET_CARRIED_OUT: readonly RefundStatus[] = [RefundStatus.REQUESTED, RefundStatus.APPROVED, RefundStatus.PROCESSING];

/**
 * processing -> failed with its `refund.failed` outbox event and the seller's notice (the payment stays completed), in one transaction under the
 * payment's lock, where a standing chargeback's share is weighed again (the refund will not give the money back).
 */
async function failRefund(em: EntityManager, deps: RefundExecutionDeps, refund: Refund, reason: string): Promise<ExecutionOutcome> {
  const failed = await em.transactional(async (tx) => {
    await tx.findOneOrFail(Payment, { id: refund.payment.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, fields: ['id'] });
    const moved = await applyMove(tx, REFUND_LIFECYCLE, Refund, 'fail', {
      id: refund.id,
      changes: { failureReason: reason, needsAttentionAt: null, failedAt: new Date() },
      populate: ['payment', 'payment.shop'],
      effects: { event: (t, done, type) => emitRefundFailed(t, deps, done, type), notice: noticeRefundFailed },
    });
    if (moved) await deps.reweighDisputes(tx, refund.payment.id);
    return moved;
  });
  if (!failed) return 'not-claimed';
  deps.logger.warn({ refundId: refund.id, paymentId: refund.payment.id, reason }, 'refund declined by the acquirer');
  return 'failed';
}

/** Approved refunds no job carried out (lost message, crash, Redis away) and stale claims, oldest first. */
export async function refundsNeedingExecution(em: EntityManager, processingTimeoutMs: number, limit = 50): Promise<string[]> {
  const rows = await em.find(
    Refund,
    { $or: [{ status: { $in: [...moveOf(REFUND_LIFECYCLE, 'claim').from] } }, { status: { $in: [...moveOf(REFUND_LIFECYCLE, 'reclaim').from] }, ...staleUnacknowledgedClaim({ processingTimeoutMs }) }] },
    { fields: ['id'], orderBy: { reviewedAt: 'asc', id: 'asc' }, limit },
  );
  return rows.map((r) => r.id);
}

/**
 * A `processing` claim older than REFUND_PROCESSING_TIMEOUT_MS belongs to a worker that died: the `reclaim` move takes
 * it over, unless the acquirer acknowledged the refund (its reference is kept). That one waits for the acquirer's
 * notification, and reconciliation looks it up: sent again, it would lean on an idempotency key the acquirer keeps
 * for days, not for ever (Adyen: at least 7), and a partial refund sent after that would be paid twice.
 */
function staleUnacknowledgedClaim(deps: Pick<RefundExecutionDeps, 'processingTimeoutMs'>) {
  return { claimedAt: { $lt: new Date(Date.now() - deps.processingTimeoutMs) }, processorReference: null };
}
