import type { EntityManager } from '@mikro-orm/postgresql';
import { type Admin, reviewQueue } from '../admins';
import { validReason } from '../../shared/reason';
import { moveAuditor, recordAudit } from '../audit';
import { bookPayout, bookWithdrawalHold, bookWithdrawalRelease, sellerBalance } from '../ledger';
import { domainError } from '../../shared/errors';
import { Seller, Shop } from '../identity';
import type { Cents } from '../../shared/cents';
import { Withdrawal, WithdrawalStatus } from './withdrawal.entity';
import { moveOf } from '../../platform/lifecycle/lifecycle';
import { applyReviewMove } from '../../platform/lifecycle/review-move';
import { WITHDRAWAL_LIFECYCLE } from './withdrawal.lifecycle';
import { withdrawalPayload } from './withdrawal-payload';
import { lockSeller, lockSellerForWithdrawal, withdrawalForApproval, withdrawalSumsBySeller } from './withdrawal-store';
import { emit, type WithdrawalEventType } from '../webhooks';
import { noticeWithdrawal } from '../notifications';
import { refundsHeld } from '../refunds';
import type { Page } from '../../shared/pagination';
import type { ListOrder } from '../../shared/list-order';
import { WITHDRAWAL_MINIMUM_CENTS, PAYOUT_REFERENCE_MAX_LENGTH } from '../../shared/limits';

/** An amount a withdrawal may ask for, before the balance is looked at. */
export function validWithdrawalAmount(amount: number): number {
  if (!Number.isSafeInteger(amount)) throw domainError('AMOUNT_INVALID');
  if (amount < WITHDRAWAL_MINIMUM_CENTS) throw domainError('WITHDRAWAL_BELOW_MINIMUM');
  return amount;
}

/** Whether `amount` may be taken from `available` now; throws the catalogue's answer when not. */
export function checkAgainstBalance(amount: number, available: Cents): void {
  if (available < 0n) throw domainError('WITHDRAWAL_BALANCE_NEGATIVE');
  if (BigInt(amount) > available) throw domainError('WITHDRAWAL_EXCEEDS_BALANCE', available);
}

/**
 * A withdrawal for the seller of `shopId`: one rule whoever asks (a dashboard session, the shop's API key, an admin
 * acting for it). Serialized per seller: the seller's row is locked (SELECT … FOR UPDATE) before the balance is read,
 * and the hold is written in the same transaction, so concurrent requests see each other's holds and can never overdraw.
 */
export async function requestWithdrawal(em: EntityManager, shopId: string, amount: number, admin: Admin | null): Promise<Withdrawal> {
  const cents = validWithdrawalAmount(amount);
  return em.transactional(async (tx) => {
    const shop = await tx.findOne(Shop, { id: shopId });
    if (!shop) throw domainError('SHOP_NOT_FOUND');
    const sellerId = shop.seller.id;
    const { emailVerified, payoutAccountSet } = await lockSellerForWithdrawal(tx, sellerId);
    if (!emailVerified) throw domainError('EMAIL_NOT_VERIFIED');
    checkAgainstBalance(cents, await balanceAfterRefundHolds(tx, sellerId));
    // The money must have somewhere to go, whatever the credential: a leaked key must not hold the whole balance
    // with no account to pay it to. Checked after the balance rules, under the same lock as the payout account's change.
    if (!payoutAccountSet) throw domainError('PAYOUT_ACCOUNT_REQUIRED');
    const seller = tx.getReference(Seller, sellerId);
    const withdrawal = tx.create(Withdrawal, { seller, shop, amount: cents, requestedBy: admin?.id ?? null });
    // Written before its hold: the hold names it by id, which the unit of work does not order inserts by.
    await tx.flush();
    bookWithdrawalHold(tx, withdrawal, seller);
    if (admin) {
      recordAudit(tx, admin, { action: 'withdrawal.requested', targetType: 'withdrawal', targetId: withdrawal.id, details: { shopId, amount: cents } });
    }
    return withdrawal;
  });
}

/**
 * requested -> approved, four eyes as every review, and only while the withdrawal is still covered: its amount
 * was held at the request (bookWithdrawalHold), so the available balance already has it taken out; a refund or
 * chargeback booked since may have taken that balance below zero, and then the held money is owed elsewhere.
 * Approval is refused (WITHDRAWAL_NOT_COVERED) until the balance is back to zero or more. The seller's row is
 * locked first, as a withdrawal request locks it, so the balance read is the one the approval stands on.
 * A self-approval or a withdrawal no longer requested gets its own answer from the review move, not this one.
 */
export async function approveWithdrawal(em: EntityManager, admin: Admin, id: string): Promise<Withdrawal> {
  const approve = (on: EntityManager) => moveWithdrawal(on, admin, id, 'approve', { reviewedBy: admin, reviewedAt: new Date() }, null);
  // The requester's own approval is refused by the move's four-eyes condition, outside any transaction of ours, so the
  // refusal's audit entry is written on its own connection once nothing is held (the embedded database has one).
  const requested = await withdrawalForApproval(em, id);
  if (requested?.requestedById === admin.id) return approve(em);
  return em.transactional(async (tx) => {
    const row = await withdrawalForApproval(tx, id);
    if (row && row.status === WithdrawalStatus.REQUESTED) {
      await lockSeller(tx, row.sellerId);
      checkCovered(await balanceAfterRefundHolds(tx, row.sellerId));
    }
    return approve(tx);
  });
}

/** Whether a requested withdrawal, its amount already held, may be approved with the seller's balance at `available`. */
export function checkCovered(available: Cents): void {
  if (available < 0n) throw domainError('WITHDRAWAL_NOT_COVERED', available);
}

/** The hold is released by a new, opposite journal (the ledger is never edited). */
export function rejectWithdrawal(em: EntityManager, admin: Admin, id: string, reason: string): Promise<Withdrawal> {
  const text = validReason(reason);
  return moveWithdrawal(em, admin, id, 'reject', { reviewedBy: admin, reviewedAt: new Date(), rejectionReason: text }, text, (tx, w) =>
    bookWithdrawalRelease(tx, w, w.seller),
  );
}

/**
 * The seller's balance less what its approved refunds hold: money promised to cardholders, which a withdrawal may not
 * take meanwhile (the ledger books a refund when the acquirer carries it out).
 */
async function balanceAfterRefundHolds(tx: EntityManager, sellerId: string): Promise<Cents> {
  const [balance, held] = await Promise.all([sellerBalance(tx, sellerId), refundsHeld(tx, [sellerId])]);
  return balance - (held.get(sellerId) ?? 0n);
}

/**
 * The bank transfer went out: the held money leaves withdrawals_payable for payouts. Refused while the seller's balance
 * after refund holds is negative (a refund or chargeback since approval took the money the withdrawal held), unless
 * finance overrides with a reason (the transfer had already left), which the audit entry keeps.
 */
export function markWithdrawalPaid(em: EntityManager, admin: Admin, id: string, reference: string, overrideReason: string | null = null): Promise<Withdrawal> {
  const text = reference?.trim() ?? '';
  if (text === '' || text.length > PAYOUT_REFERENCE_MAX_LENGTH) throw domainError('PAYOUT_REFERENCE_REQUIRED');
  const override = overrideReason === null ? null : validReason(overrideReason);
  return em.transactional(async (tx) => {
    const row = await withdrawalForApproval(tx, id);
    if (row && row.status === WithdrawalStatus.APPROVED && !override) {
      await lockSeller(tx, row.sellerId);
      const available = await balanceAfterRefundHolds(tx, row.sellerId);
      if (available < 0n) throw domainError('WITHDRAWAL_PAYOUT_NOT_COVERED', available);
    }
    return moveWithdrawal(tx, admin, id, 'pay', { paidAt: new Date(), payoutReference: text }, override, (t, w) => bookPayout(t, w));
  });
}

/**
 * A move of the withdrawal table (src/modules/withdrawals/withdrawal.lifecycle.ts) through the review move shared with
 * refunds: one conditional UPDATE (`… WHERE status IN (<from>)`, and for an approval `requested_by` is not the
 * approver), the ledger journal, the audit entry and the event the table declares, in one transaction. Two
 * admins acting at once cannot both move it, nor write its journal twice, and no race lets a requester approve.
 */
function moveWithdrawal(
  em: EntityManager,
  admin: Admin,
  id: string,
  move: WithdrawalMove,
  changes: Partial<Withdrawal>,
  reason: string | null,
  journal?: (tx: EntityManager, withdrawal: Withdrawal) => void,
): Promise<Withdrawal> {
  const declared = moveOf(WITHDRAWAL_LIFECYCLE, move);
  return applyReviewMove(em, WITHDRAWAL_LIFECYCLE, Withdrawal, move, {
    id,
    by: moveAuditor(admin),
    reason,
    changes,
    populate: ['shop', 'seller'],
    details: (w) => ({ amount: w.amount, shopId: w.shop.id, ...(changes.payoutReference ? { payoutReference: changes.payoutReference } : {}) }),
    ...(journal ? { journal } : {}),
    ...(declared.event
      ? {
          event: async (tx: EntityManager, w: Withdrawal, type: string) => {
            // The seller is told with the event (paid or rejected), in the move's transaction (src/modules/notifications/).
            await noticeWithdrawal(tx, w, type === 'withdrawal.paid' ? 'withdrawal-paid' : 'withdrawal-rejected');
            return emit(tx, { withdrawal: w, type: type as WithdrawalEventType, payload: withdrawalPayload(w) });
          },
        }
      : {}),
    notFound: () => domainError('WITHDRAWAL_NOT_FOUND'),
    selfApproval: () => domainError('SELF_APPROVAL_NOT_ALLOWED', 'withdrawal request'),
    conflict: (spec, status) => domainError('WITHDRAWAL_STATE_CONFLICT', spec.verb!, spec.from.join(' or '), status),
  });
}

type WithdrawalMove = keyof typeof WITHDRAWAL_LIFECYCLE.moves;

/** The withdrawal queue (oldest first) or one seller's withdrawals. */
export function listWithdrawals(
  em: EntityManager,
  filter: { status?: WithdrawalStatus | null; sellerId?: string | null },
  page?: number | null,
  limit?: number | null,
  order?: ListOrder | null,
): Promise<Page<Withdrawal>> {
  return reviewQueue(em, Withdrawal, { status: filter.status, seller: filter.sellerId }, page, limit, order);
}

/** Sums of a seller's withdrawals by state: pending (held, not yet paid) and paid out. */
export async function withdrawalTotals(em: EntityManager, sellerIds: readonly string[]): Promise<Map<string, { pending: Cents; paid: Cents }>> {
  const sums = await withdrawalSumsBySeller(em, sellerIds);
  const totals = new Map<string, { pending: Cents; paid: Cents }>();
  for (const id of sellerIds) totals.set(id, { pending: 0n, paid: 0n });
  for (const s of sums) totals.set(s.sellerId, { pending: s.pending, paid: s.paid });
  return totals;
}
