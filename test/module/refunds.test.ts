import { AdminRole } from '../../src/modules/admins/admin-role';
import type { Admin } from '../../src/modules/admins/admin.entity';
import { AuditEntry } from '../../src/modules/audit/audit-entry.entity';
import { createPayment } from '../../src/modules/payments/payment.service';
import { Refund, RefundStatus } from '../../src/modules/refunds/refund.entity';
import { chargebackStands } from '../../src/modules/disputes/dispute.service';
import { approveRefund, rejectRefund, requestRefund } from '../../src/modules/refunds/refund.service';
import { refusedWith } from '../support/domain-errors';
import { useModuleDatabase } from '../support/module-database';

/**
 * Refund requests and their review (src/modules/refunds/refund.service.ts), called directly on the run's database: what
 * remains of a payment bounds every request, open requests included; a rejected request gives its amount back;
 * whoever recorded a request cannot approve it, and that refusal is written to the audit log.
 */
const db = useModuleDatabase();
let support: Admin;
let finance: Admin;

beforeAll(async () => {
  support = await db.newAdmin(AdminRole.SUPPORT);
  finance = await db.newAdmin(AdminRole.FINANCE);
});

const REASON = 'Parcel returned';

const request = (paymentId: string, amount: number | null, admin: Admin = support) => requestRefund(db.em(), chargebackStands, admin, paymentId, REASON, null, amount);
/** A payment's refunds, smallest first (requests made within one millisecond have no order of their own). */
const refundsOf = async (paymentId: string) =>
  (await db.em().find(Refund, { payment: paymentId }, { orderBy: { amount: 'asc' } })).map((r) => ({ amount: r.amount, status: r.status }));
const auditOf = async (targetId: string) =>
  (await db.em().find(AuditEntry, { targetId }, { orderBy: { id: 'asc' } })).map((entry) => ({ action: entry.action, admin: entry.adminId, details: entry.details }));

test('a request above what remains of the payment is refused, with what remains, and writes nothing', async () => {
  const paymentId = await db.completedPayment(await db.newShop('refund-above'), 1000);
  const refused = await refusedWith(request(paymentId, 1001));
  expect(refused.code).toBe('REFUND_EXCEEDS_REMAINING');
  expect(refused.message).toContain(': 1000 cents');
  expect(await refundsOf(paymentId)).toEqual([]);
  // The whole amount is not above what remains.
  expect((await request(paymentId, 1000)).amount).toBe(1000);
});

test('partial requests add up: open requests count, and once they reach the payment nothing more may be asked', async () => {
  const paymentId = await db.completedPayment(await db.newShop('refund-partial'), 1000);
  expect((await request(paymentId, 400)).status).toBe(RefundStatus.REQUESTED);
  await request(paymentId, 500);
  // 400 + 500 are still open: 100 remains, so 101 is refused.
  const refused = await refusedWith(request(paymentId, 101));
  expect(refused.code).toBe('REFUND_EXCEEDS_REMAINING');
  expect(refused.message).toContain(': 100 cents');
  // No amount asks for the whole remainder, and after it neither an amount nor the remainder is accepted.
  expect((await request(paymentId, null)).amount).toBe(100);
  expect((await refusedWith(request(paymentId, 1))).code).toBe('REFUND_EXCEEDS_REMAINING');
  expect((await refusedWith(request(paymentId, null))).code).toBe('REFUND_EXCEEDS_REMAINING');
  expect(await refundsOf(paymentId)).toEqual([
    { amount: 100, status: RefundStatus.REQUESTED },
    { amount: 400, status: RefundStatus.REQUESTED },
    { amount: 500, status: RefundStatus.REQUESTED },
  ]);
});

test('a rejected request frees its amount for a new request, and the rejection is audited with its reason', async () => {
  const paymentId = await db.completedPayment(await db.newShop('refund-reject'), 1000);
  await request(paymentId, 400);
  const rejectedOne = await request(paymentId, 600);
  expect((await refusedWith(request(paymentId, 1))).code).toBe('REFUND_EXCEEDS_REMAINING');

  const rejected = await rejectRefund(db.em(), finance, rejectedOne.id, 'Customer kept the goods');
  expect(rejected).toMatchObject({ status: RefundStatus.REJECTED, rejectionReason: 'Customer kept the goods' });
  // 600 is free again, and no more than that.
  expect((await refusedWith(request(paymentId, 601))).message).toContain(': 600 cents');
  expect((await request(paymentId, 600)).amount).toBe(600);
  expect(await auditOf(rejectedOne.id)).toEqual([
    { action: 'refund.requested', admin: support.id, details: { paymentId, amount: 600 } },
    { action: 'refund.rejected', admin: finance.id, details: {} },
  ]);
  const [entry] = await db.em().find(AuditEntry, { targetId: rejectedOne.id, action: 'refund.rejected' });
  expect(entry.reason).toBe('Customer kept the goods');
});

test('only a completed payment may be refunded', async () => {
  const shop = await db.newShop('refund-pending');
  const { payment } = await createPayment(db.em(), shop.shop.id, { amount: 1000, currency: 'usd', returnUrl: 'https://shop.example/back' });
  expect((await refusedWith(request(payment.id, 100))).code).toBe('REFUND_PAYMENT_NOT_COMPLETED');
  expect(await refundsOf(payment.id)).toEqual([]);
});

test('four eyes: the admin who recorded a request cannot approve it; the refusal is audited and nothing moves; another admin approves', async () => {
  const paymentId = await db.completedPayment(await db.newShop('refund-four-eyes'), 1000);
  const refund = await request(paymentId, 300, finance);

  const refused = await refusedWith(approveRefund(db.em(), chargebackStands, finance, refund.id));
  expect(refused.code).toBe('SELF_APPROVAL_NOT_ALLOWED');
  expect(await db.em().findOneOrFail(Refund, { id: refund.id })).toMatchObject({ status: RefundStatus.REQUESTED, reviewedBy: null, reviewedAt: null });
  expect(await auditOf(refund.id)).toEqual([
    { action: 'refund.requested', admin: finance.id, details: { paymentId, amount: 300 } },
    { action: 'refund.approval_refused', admin: finance.id, details: { code: 'SELF_APPROVAL_NOT_ALLOWED' } },
  ]);

  const otherFinance = await db.newAdmin(AdminRole.FINANCE);
  const approved = await approveRefund(db.em(), chargebackStands, otherFinance, refund.id);
  expect(approved.status).toBe(RefundStatus.APPROVED);
  expect(approved.reviewedBy?.id).toBe(otherFinance.id);
  expect((await auditOf(refund.id)).map((entry) => [entry.action, entry.admin])).toEqual([
    ['refund.requested', finance.id],
    ['refund.approval_refused', finance.id],
    ['refund.approved', otherFinance.id],
  ]);
});
