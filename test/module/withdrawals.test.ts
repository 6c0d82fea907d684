import { AdminRole } from '../../src/modules/admins/admin-role';
import type { Admin } from '../../src/modules/admins/admin.entity';
import { AuditEntry } from '../../src/modules/audit/audit-entry.entity';
import { sellerBalance } from '../../src/modules/ledger/ledger.service';
import type { CardProcessor } from '../../src/platform/processor/card-processor';
import { chargebackStands, reweighDisputes } from '../../src/modules/disputes/dispute.service';
import { approveRefund, executeRefund, requestRefund } from '../../src/modules/refunds/refund.service';
import { createLogger } from '../../src/shared/logger';
import type { NewShop } from '../../src/modules/identity/shop-provisioning';
import { createSecretBox } from '../../src/modules/identity/secret-box';
import { setPayoutAccount } from '../../src/modules/withdrawals/payout-account';
import { Withdrawal, WithdrawalStatus } from '../../src/modules/withdrawals/withdrawal.entity';
import { approveWithdrawal, markWithdrawalPaid, rejectWithdrawal, requestWithdrawal } from '../../src/modules/withdrawals/withdrawal.service';
import { refusedWith } from '../support/domain-errors';
import { useModuleDatabase } from '../support/module-database';

/**
 * Withdrawals against the seller's balance (src/modules/withdrawals/withdrawal.service.ts), on the run's database. A request
 * holds its amount at once, so the available balance already has it taken out; a refund booked after the request
 * can take that balance below zero, and approval is then refused (WITHDRAWAL_NOT_COVERED) until sales cover it again.
 * The fee is 15%: a payment of 10000 cents makes 8500 available.
 */
const db = useModuleDatabase();
let requester: Admin;
let approver: Admin;

beforeAll(async () => {
  requester = await db.newAdmin(AdminRole.FINANCE);
  approver = await db.newAdmin(AdminRole.FINANCE);
});

/** An acquirer that refunds at once: the refund is booked as a live answer books it. */
const refundingAcquirer = { refund: async ({ refundId }: { refundId: string }) => ({ kind: 'refunded', reference: `psp-${refundId}` }) } as unknown as CardProcessor;

/** A refund of `amount` requested, approved by another admin and carried out: the seller is debited `amount`. */
async function refundCarriedOut(paymentId: string, amount: number): Promise<void> {
  const refund = await requestRefund(db.em(), chargebackStands, requester, paymentId, 'Parcel returned', null, amount);
  await approveRefund(db.em(), chargebackStands, approver, refund.id);
  const deps = { processor: refundingAcquirer, logger: createLogger('silent'), processingTimeoutMs: 60_000, baseUrl: 'https://pay.example', chargebackStands, reweighDisputes };
  expect(await executeRefund(db.em(), deps, refund.id)).toBe('refunded');
}

const balanceOf = (shop: NewShop) => sellerBalance(db.em(), shop.seller.id);
const stored = (id: string) => db.em().findOneOrFail(Withdrawal, { id });
const auditActions = async (targetId: string) =>
  (await db.em().find(AuditEntry, { targetId }, { orderBy: { id: 'asc' } })).map((entry) => [entry.action, entry.adminId]);

test('approval is refused while a refund booked since the request leaves the balance negative, and allowed once sales cover it', async () => {
  const shop = await db.newShop('withdrawal-covered', { payoutAccount: true });
  const paymentId = await db.completedPayment(shop, 10_000);
  expect(await balanceOf(shop)).toBe(8500n);
  const withdrawal = await requestWithdrawal(db.em(), shop.shop.id, 8000, requester);
  expect(await balanceOf(shop)).toBe(500n);
  await refundCarriedOut(paymentId, 2000);
  expect(await balanceOf(shop)).toBe(-1500n);

  // Four eyes is answered before the balance: the requester is told that, not that the money is missing.
  expect((await refusedWith(approveWithdrawal(db.em(), requester, withdrawal.id))).code).toBe('SELF_APPROVAL_NOT_ALLOWED');
  const notCovered = await refusedWith(approveWithdrawal(db.em(), approver, withdrawal.id));
  expect(notCovered.code).toBe('WITHDRAWAL_NOT_COVERED');
  expect(notCovered.message).toContain('(-1500 cents)');
  expect(await stored(withdrawal.id)).toMatchObject({ status: WithdrawalStatus.REQUESTED, reviewedBy: null, reviewedAt: null });
  expect(await balanceOf(shop)).toBe(-1500n);

  // A sale of 1000 adds 850: -650 is still negative.
  await db.completedPayment(shop, 1000);
  expect((await refusedWith(approveWithdrawal(db.em(), approver, withdrawal.id))).message).toContain('(-650 cents)');
  // 850 more makes 200: covered again. The approval moves no money (the amount was held at the request).
  await db.completedPayment(shop, 1000);
  const approved = await approveWithdrawal(db.em(), approver, withdrawal.id);
  expect(approved.status).toBe(WithdrawalStatus.APPROVED);
  expect(approved.reviewedBy?.id).toBe(approver.id);
  expect(await balanceOf(shop)).toBe(200n);
  // The business refusal writes nothing; the self-approval refusal and the approval do.
  expect(await auditActions(withdrawal.id)).toEqual([
    ['withdrawal.requested', requester.id],
    ['withdrawal.approval_refused', requester.id],
    ['withdrawal.approved', approver.id],
  ]);
});

test('a balance of exactly zero after the hold covers the withdrawal', async () => {
  const shop = await db.newShop('withdrawal-zero', { payoutAccount: true });
  await db.completedPayment(shop, 2000);
  const withdrawal = await requestWithdrawal(db.em(), shop.shop.id, 1700, requester);
  expect(await balanceOf(shop)).toBe(0n);
  expect((await approveWithdrawal(db.em(), approver, withdrawal.id)).status).toBe(WithdrawalStatus.APPROVED);
});

test('no payout account, no withdrawal, whoever asks (the shop\'s key or an admin): refused after the balance rules, nothing held', async () => {
  const shop = await db.newShop('withdrawal-nowhere');
  await db.completedPayment(shop, 2000);
  expect((await refusedWith(requestWithdrawal(db.em(), shop.shop.id, 1701, null))).code).toBe('WITHDRAWAL_EXCEEDS_BALANCE');
  for (const admin of [null, requester]) {
    const refused = await refusedWith(requestWithdrawal(db.em(), shop.shop.id, 1700, admin));
    expect([refused.code, refused.status]).toEqual(['PAYOUT_ACCOUNT_REQUIRED', 409]);
  }
  expect(await db.em().count(Withdrawal, { seller: shop.seller.id })).toBe(0);
  expect(await balanceOf(shop)).toBe(1700n);
  await setPayoutAccount(db.em(), createSecretBox(undefined), shop.seller.id, 'Nowhere Ltd', 'DE89370400440532013000');
  expect((await requestWithdrawal(db.em(), shop.shop.id, 1700, null)).status).toBe(WithdrawalStatus.REQUESTED);
});

test('a request above the available balance, or while it is negative, is refused and holds nothing; a rejection releases its hold', async () => {
  const shop = await db.newShop('withdrawal-request', { payoutAccount: true });
  const paymentId = await db.completedPayment(shop, 2000);
  const tooMuch = await refusedWith(requestWithdrawal(db.em(), shop.shop.id, 1701, requester));
  expect(tooMuch.code).toBe('WITHDRAWAL_EXCEEDS_BALANCE');
  expect(tooMuch.message).toContain('1700 cents');
  expect(await balanceOf(shop)).toBe(1700n);

  const held = await requestWithdrawal(db.em(), shop.shop.id, 1700, requester);
  await refundCarriedOut(paymentId, 1000);
  expect(await balanceOf(shop)).toBe(-1000n);
  expect((await refusedWith(requestWithdrawal(db.em(), shop.shop.id, 1000, requester))).code).toBe('WITHDRAWAL_BALANCE_NEGATIVE');
  expect((await db.em().find(Withdrawal, { seller: shop.seller.id })).map((w) => w.id)).toEqual([held.id]);

  // Rejecting the uncovered withdrawal gives its held amount back to the balance.
  expect((await rejectWithdrawal(db.em(), approver, held.id, 'Balance went negative')).status).toBe(WithdrawalStatus.REJECTED);
  expect(await balanceOf(shop)).toBe(700n);
});

describe('money held once: an approved refund holds its amount until it is carried out or fails', () => {
  test('a withdrawal may not take what an approved refund not yet carried out holds', async () => {
    const shop = await db.newShop('withdrawal-refund-hold', { payoutAccount: true });
    const paymentId = await db.completedPayment(shop, 10_000);
    const refund = await requestRefund(db.em(), chargebackStands, requester, paymentId, 'Parcel returned', null, 3000);
    // Requested only: nothing held yet (it may be rejected).
    expect((await refusedWith(requestWithdrawal(db.em(), shop.shop.id, 8600, requester))).code).toBe('WITHDRAWAL_EXCEEDS_BALANCE');
    await approveRefund(db.em(), chargebackStands, approver, refund.id);
    const refused = await refusedWith(requestWithdrawal(db.em(), shop.shop.id, 8500, requester));
    expect(refused.code).toBe('WITHDRAWAL_EXCEEDS_BALANCE');
    expect(refused.message).toContain('5500 cents');
    expect((await requestWithdrawal(db.em(), shop.shop.id, 5500, requester)).amount).toBe(5500);
  });

  test('a payout is not marked paid while the balance after refund holds is negative, unless finance overrides with a reason (audited)', async () => {
    const shop = await db.newShop('withdrawal-payout-covered', { payoutAccount: true });
    const paymentId = await db.completedPayment(shop, 10_000);
    const withdrawal = await requestWithdrawal(db.em(), shop.shop.id, 8500, requester);
    await approveWithdrawal(db.em(), approver, withdrawal.id);
    const refund = await requestRefund(db.em(), chargebackStands, requester, paymentId, 'Parcel returned', null, 1000);
    await approveRefund(db.em(), chargebackStands, approver, refund.id);
    const refused = await refusedWith(markWithdrawalPaid(db.em(), approver, withdrawal.id, 'TRF-1'));
    expect(refused.code).toBe('WITHDRAWAL_PAYOUT_NOT_COVERED');
    expect(refused.message).toContain('(-1000 cents)');
    expect((await stored(withdrawal.id)).status).toBe(WithdrawalStatus.APPROVED);
    const paid = await markWithdrawalPaid(db.em(), approver, withdrawal.id, 'TRF-1', 'The transfer left before the refund was approved');
    expect(paid.status).toBe(WithdrawalStatus.PAID);
    const [entry] = await db.em().find(AuditEntry, { targetId: withdrawal.id, action: 'withdrawal.paid' });
    expect(entry.reason).toBe('The transfer left before the refund was approved');
  });
});
