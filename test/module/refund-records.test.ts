import { AdminRole } from '../../src/modules/admins/admin-role';
import type { Admin } from '../../src/modules/admins/admin.entity';
import { claimForCard } from '../../src/modules/checkout/card-claim';
import { completeInOneStatement } from '../../src/modules/checkout/completion-statement';
import { chargebackStands, reweighDisputes } from '../../src/modules/disputes/dispute.service';
import type { NewShop } from '../../src/modules/identity/shop-provisioning';
import { LedgerEntry } from '../../src/modules/ledger/ledger-entry.entity';
import { MailOutboxEntry } from '../../src/modules/notifications/mail-outbox.entity';
import { Payment } from '../../src/modules/payments/payment.entity';
import { createPayment } from '../../src/modules/payments/payment.service';
import { approveLiveTestRefund } from '../../src/modules/refunds/live-test-refund';
import { Refund, RefundStatus } from '../../src/modules/refunds/refund.entity';
import {
  approveRefund,
  executeRefund,
  isPastReviewWindow,
  listRefunds,
  refundAgeSeconds,
  refundsNeedingExecution,
  rejectRefund,
  requestRefund,
  reverseRefund,
  settleLookedUpRefund,
} from '../../src/modules/refunds/refund.service';
import { WebhookEvent } from '../../src/modules/webhooks/webhook-event.entity';
import type { CardProcessor, RefundRequest } from '../../src/platform/processor/card-processor';
import { REFUND_REVIEW_WINDOW_MS } from '../../src/shared/limits';
import { createLogger } from '../../src/shared/logger';
import { refusedWith } from '../support/domain-errors';
import { useModuleDatabase } from '../support/module-database';

/**
 * What a refund's moves write on its row and around it (src/modules/refunds/refund.service.ts), on the run's database:
 * the review's who and when, a claim's attempt, the marks a person's attention clears, a live test's own journal,
 * the refund event's body; the admins' queue and its filters, and how old a request is against its review window.
 */
const db = useModuleDatabase();
let support: Admin;
let finance: Admin;
beforeAll(async () => {
  support = await db.newAdmin(AdminRole.SUPPORT);
  finance = await db.newAdmin(AdminRole.FINANCE);
});

function deps(answer: (request: RefundRequest) => Promise<unknown>) {
  const processor = { refund: answer } as unknown as CardProcessor;
  return { processor, logger: createLogger('silent'), processingTimeoutMs: 60_000, baseUrl: 'https://pay.example', chargebackStands, reweighDisputes };
}
const refunding = deps(async ({ refundId }) => ({ kind: 'refunded', reference: `psp-${refundId}` }));
const silent = deps(async () => Promise.reject(new Error('socket hang up')));

const paid = async (label: string, amount = 1000) => db.completedPayment(await db.newShop(label), amount);
const requested = (paymentId: string, amount: number) => requestRefund(db.em(), chargebackStands, support, paymentId, 'Parcel returned', null, amount);
async function approved(paymentId: string, amount: number): Promise<string> {
  const refund = await requested(paymentId, amount);
  await approveRefund(db.em(), chargebackStands, finance, refund.id);
  return refund.id;
}
const refundOf = (id: string) => db.em().findOneOrFail(Refund, { id });
/** A person's attention asked for the refund (reconciliation's mark): the move that settles it clears it. */
const flagged = (id: string) => db.em().nativeUpdate(Refund, { id }, { needsAttentionAt: new Date() });

describe('the review', () => {
  test('an approval and a rejection name who decided and when; a decided refund cannot be decided again', async () => {
    const paymentId = await paid('records-review');
    const before = Date.now();
    const approvedId = await approved(paymentId, 100);
    const approvedRow = await refundOf(approvedId);
    expect(approvedRow.reviewedBy?.id).toBe(finance.id);
    expect(approvedRow.reviewedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);

    const again = await refusedWith(rejectRefund(db.em(), finance, approvedId, 'Too late'));
    expect([again.code, again.message]).toEqual(['REFUND_STATE_CONFLICT', 'Only requested refunds can be rejected (this one is approved)']);
    const twice = await refusedWith(approveRefund(db.em(), chargebackStands, finance, approvedId));
    expect([twice.code, twice.message]).toEqual(['REFUND_STATE_CONFLICT', 'Only requested refunds can be approved (this one is approved)']);

    const rejected = await requested(paymentId, 100);
    await rejectRefund(db.em(), finance, rejected.id, 'Customer kept the goods');
    expect(await refundOf(rejected.id)).toMatchObject({ status: RefundStatus.REJECTED, rejectionReason: 'Customer kept the goods', reviewedBy: expect.objectContaining({ id: finance.id }) });
  });

  test('the seller is told of an approval, a rejection with its reason, and a failure with the acquirer\'s', async () => {
    const paymentId = await paid('records-told');
    const approvedId = await approved(paymentId, 100);
    const rejected = await requested(paymentId, 200);
    await rejectRefund(db.em(), finance, rejected.id, 'Customer kept the goods');
    await executeRefund(db.em(), deps(async () => ({ kind: 'declined', reason: 'Insufficient balance' })), approvedId);
    const told = await db.em().execute('select "kind", "subject_id", "params" from "mail_outbox" where "payment_id" = ? and "kind" like \'refund-%\' order by "kind"', [paymentId]);
    expect(told.map((mail) => [mail.kind, mail.subject_id, mail.params])).toEqual([
      ['refund-approved', approvedId, { paymentId, amount: 100, reason: null }],
      ['refund-failed', approvedId, { paymentId, amount: 100, reason: 'Insufficient balance' }],
      ['refund-rejected', rejected.id, { paymentId, amount: 200, reason: 'Customer kept the goods' }],
    ]);
  });

  test('no such refund: neither approved nor rejected', async () => {
    expect((await refusedWith(approveRefund(db.em(), chargebackStands, finance, 'ref_missing'))).code).toBe('REFUND_NOT_FOUND');
    expect((await refusedWith(rejectRefund(db.em(), finance, 'ref_missing', 'No such refund'))).code).toBe('REFUND_NOT_FOUND');
  });
});

describe('sending and settling', () => {
  test("a claim counts its attempt and notes when; a payment without the acquirer's reference fails the refund, unsent", async () => {
    const paymentId = await paid('records-no-reference');
    const refundId = await approved(paymentId, 100);
    await db.em().nativeUpdate(Payment, { id: paymentId }, { processorReference: null });
    const sent: RefundRequest[] = [];
    const before = Date.now();
    expect(await executeRefund(db.em(), deps(async (request) => (sent.push(request), { kind: 'refunded', reference: 'x' })), refundId)).toBe('failed');
    expect(sent).toEqual([]);
    const refund = await refundOf(refundId);
    expect(refund).toMatchObject({ status: RefundStatus.FAILED, failureReason: 'no_authorization_reference', attempts: 1 });
    expect(refund.claimedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  test('a refund carried out, failed or requeued no longer asks for attention', async () => {
    const paymentId = await paid('records-attention');
    const [done, declined, lost] = [await approved(paymentId, 100), await approved(paymentId, 200), await approved(paymentId, 300)];
    for (const id of [done, declined, lost]) {
      await executeRefund(db.em(), silent, id);
      await flagged(id);
    }
    expect(await settleLookedUpRefund(db.em(), refunding, done, { kind: 'refunded', reference: 'psp-done' })).toBe('refunded');
    expect(await settleLookedUpRefund(db.em(), refunding, declined, { kind: 'declined', reason: 'Refused' })).toBe('failed');
    expect(await settleLookedUpRefund(db.em(), refunding, lost, { kind: 'not_found' })).toBe('requeued');
    const rows = await Promise.all([done, declined, lost].map(refundOf));
    expect(rows.map((r) => [r.status, r.needsAttentionAt])).toEqual([
      [RefundStatus.REFUNDED, null],
      [RefundStatus.FAILED, null],
      [RefundStatus.APPROVED, null],
    ]);
    expect(rows[0].processorReference).toBe('psp-done');
    expect(rows[0].refundedAt).toBeInstanceOf(Date);
    expect(rows[1].failedAt).toBeInstanceOf(Date);
  });

  test("the customer's refund notice carries the tracking link's token", async () => {
    const paymentId = await paid('records-notice');
    await db.em().nativeUpdate(Payment, { id: paymentId }, { customerEmail: 'ada@example.com' });
    const refundId = await approved(paymentId, 100);
    expect(await executeRefund(db.em(), refunding, refundId)).toBe('refunded');
    const [notice] = await db.em().execute('select "params" from "mail_outbox" where "kind" = \'refund-notice\' and "subject_id" = ?', [refundId]);
    expect(notice.params.trackingToken).toEqual(expect.any(String));
    await db.em().nativeDelete(MailOutboxEntry, { paymentId });
  });

  test("the acquirer's reference of a refund it received is noted on that refund only", async () => {
    const paymentId = await paid('records-received');
    const [received, other] = [await approved(paymentId, 100), await approved(paymentId, 200)];
    expect(await executeRefund(db.em(), deps(async ({ refundId }) => ({ kind: 'pending', reference: `psp-${refundId}` })), received)).toBe('awaiting-acquirer');
    expect((await refundOf(received)).processorReference).toBe(`psp-${received}`);
    expect((await refundOf(other)).processorReference).toBeNull();
  });

  test('a reversal notes when; an answer for a refund no longer processing moves nothing and weighs no dispute again', async () => {
    const paymentId = await paid('records-reversal');
    const refundId = await approved(paymentId, 100);
    await executeRefund(db.em(), refunding, refundId);
    expect(await reverseRefund(db.em(), { reweighDisputes }, refundId, { amount: 100, currency: 'USD' })).toEqual({ effect: 'moved' });
    expect((await refundOf(refundId)).reversedAt).toBeInstanceOf(Date);

    const declined = await approved(paymentId, 200);
    await executeRefund(db.em(), deps(async () => ({ kind: 'declined', reason: 'No' })), declined);
    const reweighed: string[] = [];
    const watching = { ...refunding, reweighDisputes: async (_tx: unknown, id: string) => void reweighed.push(id) };
    expect(await settleLookedUpRefund(db.em(), watching, declined, { kind: 'declined', reason: 'No again' })).toBe('not-claimed');
    expect(reweighed).toEqual([]);
    expect(await refundOf(declined)).toMatchObject({ status: RefundStatus.FAILED, failureReason: 'No' });
  });

  test("the refund event carries the payment as it ends up and the refund", async () => {
    const paymentId = await paid('records-event');
    const refundId = await approved(paymentId, 1000);
    expect(await executeRefund(db.em(), refunding, refundId)).toBe('refunded');
    const [event] = await db.em().find(WebhookEvent, { paymentId, type: 'payment.refunded' });
    expect(JSON.parse(event.body)).toMatchObject({ payment: { id: paymentId, status: 'refunded' }, refund: { id: refundId, amount: 1000, status: 'refunded' } });
  });

  test("a live test's refund takes back its fee-free credit on the test journal", async () => {
    const shop: NewShop = await db.newShop('records-live-test');
    const { payment } = await createPayment(db.em(), shop.shop.id, { amount: 50, currency: 'usd', returnUrl: 'https://shop.example/back' });
    await claimForCard(db.em(), payment.id, new Date(Date.now() - 3600_000), { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2031 });
    await db.em().nativeUpdate(Payment, { id: payment.id }, { test: true });
    const facts = { payment: { ...payment, test: true }, shop: { id: shop.shop.id, name: shop.shop.name }, processorReference: `psp-${payment.id}`, threeDsOutcome: undefined, baseUrl: 'https://pay.example' };
    expect((await completeInOneStatement(db.em(), facts)).completed).toBe(true);
    const refundId = (await approveLiveTestRefund(db.em(), payment.id))!;
    expect(await executeRefund(db.em(), refunding, refundId)).toBe('refunded');
    const lines = (await db.em().find(LedgerEntry, { refundId }, { orderBy: { id: 'asc' } })).map((e) => `${e.account} ${e.kind} ${e.amount}`);
    expect(lines).toEqual(['seller_balance test_refund -50', 'customer_funds test_refund 50']);
  });
});

describe("the admins' queue", () => {
  test('filtered by status and payment, oldest first', async () => {
    const paymentId = await paid('records-queue');
    const first = await requested(paymentId, 100);
    const second = await requested(paymentId, 200);
    await rejectRefund(db.em(), finance, second.id, 'Customer kept the goods');
    const ofPayment = await listRefunds(db.em(), { paymentId });
    expect(ofPayment.items.map((r) => r.id)).toEqual([first.id, second.id]);
    expect((await listRefunds(db.em(), { paymentId, status: RefundStatus.REJECTED })).items.map((r) => r.id)).toEqual([second.id]);
    expect((await listRefunds(db.em(), { status: RefundStatus.REJECTED })).items.map((r) => r.status)).not.toContain(RefundStatus.REQUESTED);
  });

  test('the refunds to send: approved ones and stale claims, oldest approval first, as many as asked', async () => {
    const paymentId = await paid('records-to-send');
    const [older, newer] = [await approved(paymentId, 100), await approved(paymentId, 200)];
    await db.em().nativeUpdate(Refund, { id: older }, { reviewedAt: new Date(Date.now() - 7 * 24 * 3600_000) });
    const due = await refundsNeedingExecution(db.em(), 60_000, 10_000);
    expect(due.indexOf(older)).toBeLessThan(due.indexOf(newer));
    expect(due.indexOf(older)).toBeGreaterThanOrEqual(0);
    expect(await refundsNeedingExecution(db.em(), 60_000, 1)).toHaveLength(1);
  });

  test('a stale claim is taken over only while the refund is processing: a failed one is never sent again', async () => {
    const paymentId = await paid('records-stale-failed');
    const declined = await approved(paymentId, 100);
    await executeRefund(db.em(), deps(async () => ({ kind: 'declined', reason: 'No' })), declined);
    await db.em().nativeUpdate(Refund, { id: declined }, { claimedAt: new Date(Date.now() - 7 * 24 * 3600_000) });
    expect(await refundsNeedingExecution(db.em(), 60_000, 10_000)).not.toContain(declined);
  });

  test("a request's age in whole seconds, never below zero, and the review window passed only after its 24 hours", () => {
    const createdAt = new Date('2026-03-01T10:00:00Z');
    const refund = { createdAt, status: RefundStatus.REQUESTED } as Refund;
    expect(refundAgeSeconds(refund, createdAt.getTime() + 2999)).toBe(2);
    expect(refundAgeSeconds(refund, createdAt.getTime() - 5000)).toBe(0);
    expect(isPastReviewWindow(refund, createdAt.getTime() + REFUND_REVIEW_WINDOW_MS)).toBe(false);
    expect(isPastReviewWindow(refund, createdAt.getTime() + REFUND_REVIEW_WINDOW_MS + 1)).toBe(true);
    expect(isPastReviewWindow({ ...refund, status: RefundStatus.APPROVED } as Refund, createdAt.getTime() + REFUND_REVIEW_WINDOW_MS + 1)).toBe(false);
  });
});
