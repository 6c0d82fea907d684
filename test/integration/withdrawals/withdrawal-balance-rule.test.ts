import { AdminRole } from '../../../src/modules/admins/admin-role';
import { sellerBalance } from '../../../src/modules/ledger/ledger.service';
import { adminClient, completedPayment, eventually, graphql, payableShop, type AdminClient } from '../../support/admin-client';
import { useTestService } from '../../support/test-service';

/**
 * Approving a withdrawal while the seller's balance no longer covers it (docs/admin.md, "Withdrawals"). The amount
 * is held when the withdrawal is requested, so the available balance already has it taken out: approval is refused
 * while that balance is negative (a refund or chargeback booked after the request), and allowed once it is zero or more.
 */
const service = useTestService();
let support: AdminClient;
let finance: AdminClient;
let financeB: AdminClient;

beforeAll(async () => {
  support = await adminClient(service, AdminRole.SUPPORT);
  finance = await adminClient(service, AdminRole.FINANCE);
  financeB = await adminClient(service, AdminRole.FINANCE);
});

const REQUEST = `mutation ($amount: SafeInt!, $shopId: ID) { requestWithdrawal(amount: $amount, shopId: $shopId) { id status } }`;
const APPROVE = `mutation ($id: ID!) { approveWithdrawal(id: $id) { id status reviewedBy { email } } }`;
const STATUS = `query ($shopId: ID) { withdrawals(shopId: $shopId, limit: 10) { items { id status } } balance(shopId: $shopId) { available pendingWithdrawals } }`;
const REFUND = `mutation ($p: ID!, $amount: SafeInt) { requestRefund(paymentId: $p, reason: "Parcel returned", amount: $amount) { id } }`;
const APPROVE_REFUND = `mutation ($id: ID!) { approveRefund(id: $id) { id } }`;

/** A shop whose seller has `gross` paid (85% of it available), a withdrawal of `amount` requested by its key, then a refund of `refunded` carried out. */
async function withdrawalThenRefund(gross: number, amount: number, refunded: number) {
  const { shop, paymentId } = await completedPayment(service, gross, await payableShop(service));
  const asSeller = (query: string, variables: Record<string, unknown> = {}) => graphql(service.url, `Bearer ${shop.apiKey}`, query, variables);
  const requested = await asSeller(REQUEST, { amount });
  expect(requested.errors).toBeUndefined();
  const withdrawalId = requested.data.requestWithdrawal.id as string;
  const before = await sellerBalance(service.em(), shop.seller.id);
  const refundId = (await support.ok(REFUND, { p: paymentId, amount: refunded })).requestRefund.id;
  await finance.ok(APPROVE_REFUND, { id: refundId });
  await eventually(async () => (await sellerBalance(service.em(), shop.seller.id)) === before - BigInt(refunded), 15_000, 'the refund to be booked');
  return { shop, withdrawalId, asSeller };
}

test('refused in words while the balance is negative after a refund booked since the request; nothing moves', async () => {
  // 10000 paid: 8500 available; 8000 requested (held): 500 left; a refund of 2000: -1500.
  const { shop, withdrawalId } = await withdrawalThenRefund(10_000, 8000, 2000);
  const answer = await finance.run(APPROVE, { id: withdrawalId });
  expect(answer.errors?.[0]).toMatchObject({
    message:
      "This withdrawal cannot be approved while the seller's available balance is negative (-1500 cents): a refund or chargeback booked after the request has used the money it held. Approve it once the balance is back to zero or more, or reject it",
    extensions: { code: 'WITHDRAWAL_NOT_COVERED', status: 409 },
  });
  const after = await finance.ok(STATUS, { shopId: shop.shop.id });
  expect(after.withdrawals.items).toEqual([{ id: withdrawalId, status: 'REQUESTED' }]);
  expect(after.balance).toEqual({ available: -1500, pendingWithdrawals: 8000 });
  // A business refusal writes nothing to the audit log (docs/admin.md, "Refusals").
  const log = await finance.ok(`query ($t: String) { auditLog(targetId: $t) { items { action } } }`, { t: withdrawalId });
  expect(log.auditLog.items).toEqual([]);
});

test('approved once new sales cover it again', async () => {
  const { shop, withdrawalId } = await withdrawalThenRefund(10_000, 8000, 2000); // -1500
  expect((await finance.run(APPROVE, { id: withdrawalId })).errors?.[0].extensions?.code).toBe('WITHDRAWAL_NOT_COVERED');
  // 1000 paid: +850, still -650: still refused.
  await completedPayment(service, 1000, shop);
  expect((await finance.run(APPROVE, { id: withdrawalId })).errors?.[0].message).toContain('(-650 cents)');
  // 1000 more: +850 makes 200, and the withdrawal is covered again.
  await completedPayment(service, 1000, shop);
  const approved = await finance.ok(APPROVE, { id: withdrawalId });
  expect(approved.approveWithdrawal).toEqual({ id: withdrawalId, status: 'APPROVED', reviewedBy: { email: finance.admin.email } });
  const log = await finance.ok(`query ($t: String) { auditLog(targetId: $t) { items { action adminId } } }`, { t: withdrawalId });
  expect(log.auditLog.items).toEqual([{ action: 'withdrawal.approved', adminId: finance.admin.id }]);
});

test('a balance of exactly zero after the hold is covered', async () => {
  // 2000 paid: 1700 available, all of it requested: 0 left.
  const { shop } = await completedPayment(service, 2000, await payableShop(service));
  const withdrawalId = (await support.ok(REQUEST, { amount: 1700, shopId: shop.shop.id })).requestWithdrawal.id;
  expect(await sellerBalance(service.em(), shop.seller.id)).toBe(0n);
  expect((await finance.ok(APPROVE, { id: withdrawalId })).approveWithdrawal.status).toBe('APPROVED');
});

test('four eyes comes first: the requester is told so, not about the balance', async () => {
  const { shop, paymentId } = await completedPayment(service, 10_000, await payableShop(service));
  const withdrawalId = (await finance.ok(REQUEST, { amount: 8000, shopId: shop.shop.id })).requestWithdrawal.id;
  const refundId = (await support.ok(REFUND, { p: paymentId, amount: 2000 })).requestRefund.id;
  await financeB.ok(APPROVE_REFUND, { id: refundId });
  await eventually(async () => (await sellerBalance(service.em(), shop.seller.id)) === -1500n, 15_000, 'the refund to be booked');
  expect((await finance.run(APPROVE, { id: withdrawalId })).errors?.[0].extensions?.code).toBe('SELF_APPROVAL_NOT_ALLOWED');
  expect((await financeB.run(APPROVE, { id: withdrawalId })).errors?.[0].extensions?.code).toBe('WITHDRAWAL_NOT_COVERED');
});

test('a withdrawal no longer requested answers its state, whatever the balance', async () => {
  const { withdrawalId } = await withdrawalThenRefund(10_000, 8000, 2000);
  await finance.ok(`mutation ($id: ID!) { rejectWithdrawal(id: $id, reason: "Balance went negative") { id } }`, { id: withdrawalId });
  expect((await finance.run(APPROVE, { id: withdrawalId })).errors?.[0]).toMatchObject({
    message: 'Only requested withdrawals can be approved (this one is rejected)',
    extensions: { code: 'WITHDRAWAL_STATE_CONFLICT' },
  });
  expect((await finance.run(APPROVE, { id: 'wd_nope' })).errors?.[0].extensions?.code).toBe('WITHDRAWAL_NOT_FOUND');
});

test('an approved withdrawal is not marked paid while a refund since has taken the balance below zero, unless finance overrides with a reason', async () => {
  const { shop, paymentId } = await completedPayment(service, 10_000, await payableShop(service));
  const withdrawalId = (await support.ok(REQUEST, { amount: 8000, shopId: shop.shop.id })).requestWithdrawal.id;
  await finance.ok(APPROVE, { id: withdrawalId });
  const refundId = (await support.ok(REFUND, { p: paymentId, amount: 2000 })).requestRefund.id;
  await financeB.ok(APPROVE_REFUND, { id: refundId });
  await eventually(async () => (await sellerBalance(service.em(), shop.seller.id)) === -1500n, 15_000, 'the refund to be booked');
  const refused = await finance.run(`mutation ($id: ID!) { markWithdrawalPaid(id: $id, reference: "TRF-991") { status } }`, { id: withdrawalId });
  expect(refused.errors?.[0].extensions).toEqual({ code: 'WITHDRAWAL_PAYOUT_NOT_COVERED', status: 409 });
  const paid = await finance.ok(`mutation ($id: ID!) { markWithdrawalPaid(id: $id, reference: "TRF-991", overrideReason: "The transfer left before the refund") { status } }`, { id: withdrawalId });
  expect(paid.markWithdrawalPaid.status).toBe('PAID');
});
