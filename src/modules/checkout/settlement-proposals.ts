import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import type { Admin } from '../admins';
import { moveAuditor, recordAudit } from '../audit';
import { isPaymentId, Payment } from '../payments';
import { Refund, settleNotifiedRefund } from '../refunds';
import { applyReviewMove } from '../../platform/lifecycle/review-move';
import { domainError } from '../../shared/errors';
import { validReason } from '../../shared/reason';
import { refundSettlingDeps } from './acquirer-settling';
import { settleLookedUpPayment, type CheckoutDeps, type Settlement } from './checkout.service';
import { SettlementProposal, SettlementProposalStatus } from './settlement-proposal.entity';
import { SETTLEMENT_PROPOSAL_LIFECYCLE } from './settlement-proposal.lifecycle';
import { answerProblem, SettlementAnswer, type SettlementTarget } from './settlement-rules';

/** Why a refund failed when finance says the acquirer failed it (the seller's notice and `refund.failed` event show it). */
export const FAILED_AT_ACQUIRER = 'failed_at_acquirer';

export interface ProposedAnswer {
  targetId: string;
  answer: SettlementAnswer;
  acquirerReference: string | null;
  reason: string;
}

/**
 * A finance admin records what the acquirer's own records say of a payment or refund left without an answer
 * (docs/admin.md, "Settling by hand"). Nothing moves yet; one open proposal per payment or refund (a unique index).
 */
export async function proposeSettlement(em: EntityManager, admin: Admin, proposed: ProposedAnswer): Promise<SettlementProposal> {
  const reason = validReason(proposed.reason);
  const reference = proposed.acquirerReference?.trim() || null;
  const target = await targetOf(em, proposed.targetId);
  const problem = answerProblem(proposed.answer, target, reference);
  if (problem) throw domainError('SETTLEMENT_ANSWER_DOES_NOT_FIT', problem);
  const proposal = em.create(SettlementProposal, {
    targetType: target.type, targetId: proposed.targetId, targetStatus: target.status,
    answer: proposed.answer, acquirerReference: reference, reason, requestedBy: admin,
  });
  recordAudit(em, admin, { action: 'settlement_proposal.proposed', targetType: target.type, targetId: proposed.targetId, reason, details: { proposal: proposal.id, answer: proposal.answer, acquirerReference: reference } });
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw domainError('SETTLEMENT_ALREADY_PROPOSED');
    throw error;
  }
  return proposal;
}

/**
 * Another finance admin confirms a proposal: the four-eyes move (one winner however many confirm at once), then the payment
 * or refund settled through the same moves as the acquirer's own answer, while it still stands where it stood when
 * proposed. What that did is kept on the proposal and in the target's audit trail. Should settling itself fail, the
 * target is untouched, the outcome says so, and a new proposal may be made.
 */
export async function confirmSettlement(em: EntityManager, checkout: CheckoutDeps, admin: Admin, id: string, reason: string): Promise<SettlementProposal> {
  const note = validReason(reason);
  const proposal = await reviewMove(em, admin, id, 'confirm', note);
  const outcome = await settleIfUnchanged(em, checkout, proposal).catch((error: Error) => {
    checkout.logger.error({ proposal: id, targetId: proposal.targetId, err: error.message }, 'a settlement by hand was confirmed but settling failed: nothing moved');
    return 'nothing: settling failed; the payment or refund is as it was (propose again)';
  });
  recordAudit(em, admin, {
    action: 'acquirer.settled_by_hand', targetType: proposal.targetType, targetId: proposal.targetId, reason: note,
    details: { proposal: id, answer: proposal.answer, acquirerReference: proposal.acquirerReference, outcome, proposedBy: proposal.requestedBy.email },
  });
  proposal.outcome = outcome;
  await em.flush();
  return proposal;
}

/** A proposal set aside, by its proposer or another finance admin, with a reason: nothing moves. */
export async function rejectSettlement(em: EntityManager, admin: Admin, id: string, reason: string): Promise<SettlementProposal> {
  return reviewMove(em, admin, id, 'reject', validReason(reason));
}

/** The proposals waiting for a second finance admin, oldest first. */
export async function openSettlementProposals(em: EntityManager, limit: number): Promise<SettlementProposal[]> {
  return em.find(SettlementProposal, { status: SettlementProposalStatus.PROPOSED }, { orderBy: { createdAt: 'asc', id: 'asc' }, limit, populate: ['requestedBy'] });
}

/** A payment's or refund's proposals, newest first (its page shows them). */
export async function settlementProposalsOf(em: EntityManager, targetIds: string[]): Promise<SettlementProposal[]> {
  return em.find(SettlementProposal, { targetId: { $in: targetIds } }, { orderBy: { createdAt: 'desc', id: 'desc' }, populate: ['requestedBy', 'reviewedBy'] });
}

function reviewMove(em: EntityManager, admin: Admin, id: string, move: 'confirm' | 'reject', reason: string): Promise<SettlementProposal> {
  return applyReviewMove(em, SETTLEMENT_PROPOSAL_LIFECYCLE, SettlementProposal, move, {
    id, by: moveAuditor(admin), reason,
    changes: { reviewedBy: admin, reviewedAt: new Date() },
    populate: ['requestedBy', 'reviewedBy'],
    details: (p) => ({ targetId: p.targetId, answer: p.answer, acquirerReference: p.acquirerReference }),
    notFound: () => domainError('SETTLEMENT_PROPOSAL_NOT_FOUND'),
    selfApproval: () => domainError('SELF_APPROVAL_NOT_ALLOWED', 'settlement by hand'),
    conflict: (spec, status) => domainError('SETTLEMENT_PROPOSAL_STATE_CONFLICT', spec.verb!, status),
  });
}

async function settleIfUnchanged(em: EntityManager, checkout: CheckoutDeps, proposal: SettlementProposal): Promise<string> {
  const now = await targetOf(em, proposal.targetId);
  if (now.status !== proposal.targetStatus) return `nothing: the ${now.type} is ${now.status} now (it was ${proposal.targetStatus})`;
  const reference = proposal.acquirerReference ?? '';
  switch (proposal.answer) {
    case SettlementAnswer.AUTHORISED:
      return paymentOutcome(await settleLookedUpPayment(checkout, em.fork(), proposal.targetId, { kind: 'approved', reference, threeDs: null }));
    case SettlementAnswer.REFUSED:
      return paymentOutcome(await settleLookedUpPayment(checkout, em.fork(), proposal.targetId, { kind: 'declined', code: 'card_declined', threeDs: null }));
    case SettlementAnswer.NEVER_RECEIVED:
      return paymentOutcome(await settleLookedUpPayment(checkout, em.fork(), proposal.targetId, { kind: 'not_found' }));
    case SettlementAnswer.REFUNDED:
    case SettlementAnswer.REFUND_FAILED: {
      const told = proposal.answer === SettlementAnswer.REFUNDED ? { kind: 'refunded' as const, reference } : { kind: 'declined' as const, reason: FAILED_AT_ACQUIRER };
      const settled = await settleNotifiedRefund(em.fork(), refundSettlingDeps(checkout), proposal.targetId, told);
      if ('problem' in settled) return `nothing: ${settled.problem}`;
      if (settled.effect === 'nothing-to-do') return 'nothing: already settled';
      return proposal.answer === SettlementAnswer.REFUNDED ? 'refunded' : 'failed';
    }
  }
}

const PAYMENT_OUTCOMES: Record<Settlement, string> = {
  completed: 'completed',
  failed: 'failed',
  refused: 'failed: the shop no longer takes payments, so the authorisation is voided',
  lost: 'nothing: already settled',
};
const paymentOutcome = (settled: Settlement) => PAYMENT_OUTCOMES[settled];

async function targetOf(em: EntityManager, id: string): Promise<SettlementTarget> {
  if (!id.startsWith('ref_')) {
    const payment = isPaymentId(id) && (await em.findOne(Payment, { id }, { refresh: true, fields: ['status', 'checkoutStage'] }));
    if (!payment) throw domainError('PAYMENT_NOT_FOUND');
    return { type: 'payment', status: payment.status, stage: payment.checkoutStage };
  }
  const refund = await em.findOne(Refund, { id }, { refresh: true, fields: ['status'] });
  if (!refund) throw domainError('REFUND_NOT_FOUND');
  return { type: 'refund', status: refund.status };
}
