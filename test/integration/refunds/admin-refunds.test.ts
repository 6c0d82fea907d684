import { LedgerAccount, LedgerEntry } from '../../../src/modules/ledger/ledger-entry.entity';
import { sellerBalance } from '../../../src/modules/ledger/ledger.service';
import { Refund } from '../../../src/modules/refunds/refund.entity';
import { executeRefund } from '../../../src/modules/refunds/refund.service';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { adminClient, completedPayment, eventually, type AdminClient } from '../../support/admin-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { startTestService, useTestService } from '../../support/test-service';
import { useEmptyDatabase } from '../../support/databases';

// The refund takes a moment at the acquirer, so concurrent executions really overlap; the sweep runs often.
const service = useTestService({ SIMULATED_REFUND_DELAY_MS: '150', REFUND_SWEEP_INTERVAL_MS: '250' });
let admin: AdminClient;
/** Support records requests, finance decides (docs/admin.md); `admin` (an owner) reads. */
let support: AdminClient;
let finance: AdminClient;

beforeAll(async () => {
  admin = await adminClient(service);
  support = await adminClient(service, AdminRole.SUPPORT);
  finance = await adminClient(service, AdminRole.FINANCE);
});

const REQUEST = `mutation ($paymentId: ID!, $reason: String!) { requestRefund(paymentId: $paymentId, reason: $reason) { id status amount reason } }`;
const APPROVE = `mutation ($id: ID!) { approveRefund(id: $id) { id status reviewedBy { email } } }`;
const REJECT = `mutation ($id: ID!, $reason: String!) { rejectRefund(id: $id, reason: $reason) { id status rejectionReason } }`;
const ONE = `query ($id: ID!) { refund(id: $id) { id status attempts failureReason processorReference refundedAt payment { id status } } }`;
const QUEUE = `query ($status: RefundStatus) { refunds(status: $status, limit: 100) { items { id status ageSeconds pastReviewWindow payment { id shop { id } } } pagination { total } } }`;

const sql = (query: string, params: unknown[] = []) => service.em().getConnection().execute(query, params);

async function requested(amount = 1000) {
  const payment = await completedPayment(service, amount);
  const { requestRefund } = await support.ok(REQUEST, { paymentId: payment.paymentId, reason: 'Customer returned the goods' });
  return { ...payment, refundId: requestRefund.id as string };
}

const refundStatus = async (id: string) => (await admin.ok(ONE, { id })).refund.status as string;

describe('a refund goes from request to refunded, the ledger debited once', () => {
  test('request -> approve -> the job refunds the card, the payment is refunded over REST (completed_at kept), the seller is debited the full amount', async () => {
    const { shop, seller, paymentId, refundId } = await requested(1000);
    const before = (await seller.retrieve(paymentId)).body.data;
    expect(before.status).toBe('completed');
    expect(await sellerBalance(service.em(), shop.seller.id)).toBe(850n);

    const queue = await admin.ok(QUEUE, { status: 'REQUESTED' });
    const entry = queue.refunds.items.find((r: { id: string }) => r.id === refundId);
    expect(entry).toMatchObject({ status: 'REQUESTED', pastReviewWindow: false, payment: { id: paymentId, shop: { id: shop.shop.id } } });
    expect(entry.ageSeconds).toBeGreaterThanOrEqual(0);

    const approved = await finance.ok(APPROVE, { id: refundId });
    // The job is started with the answer; on a busy machine it may have taken the refund up before the answer is written.
    expect(approved.approveRefund).toMatchObject({ id: refundId, reviewedBy: { email: finance.admin.email } });
    expect(['APPROVED', 'PROCESSING']).toContain(approved.approveRefund.status);

    await eventually(async () => (await seller.retrieve(paymentId)).body.data.status === 'refunded', 10_000, 'refunded over REST');
    const after = (await seller.retrieve(paymentId)).body.data;
    expect(after.completed_at).toBe(before.completed_at);

    const refund = (await admin.ok(ONE, { id: refundId })).refund;
    expect(refund).toMatchObject({ status: 'REFUNDED', attempts: 1, payment: { status: 'REFUNDED' } });
    expect(refund.processorReference).toMatch(/^sim_re_/);
    expect(refund.refundedAt).not.toBeNull();

    const entries = await service.em().find(LedgerEntry, { paymentId, kind: 'refund' });
    expect(entries.map((e) => [e.account, e.amount]).sort()).toEqual([['customer_funds', 1000], ['seller_balance', -1000]]);
    // The fee stays with us: 850 credited, 1000 taken back.
    expect(await sellerBalance(service.em(), shop.seller.id)).toBe(-150n);
    const [fees] = await sql(`select coalesce(sum(amount), 0)::int as total from ledger_entries where payment_id = ? and account = 'fee_revenue'`, [paymentId]);
    expect(fees.total).toBe(150);
  });

  test('a seller lists its payments and sees refunded with ?status=refunded', async () => {
    const { seller, paymentId, refundId } = await requested(2000);
    await finance.ok(APPROVE, { id: refundId });
    await eventually(async () => (await refundStatus(refundId)) === 'REFUNDED');
    const list = await seller.list('?status=refunded');
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([paymentId]);
  });
});

describe('what can be refunded', () => {
  test.each([
    ['a blank reason', '   ', 'A reason of 1 to 500 characters is required'],
    ['a reason over 500 characters', 'x'.repeat(501), 'A reason of 1 to 500 characters is required'],
  ])('%s -> refused', async (_name, reason, message) => {
    const { paymentId } = await completedPayment(service);
    const answer = await support.run(REQUEST, { paymentId, reason });
    expect(answer.errors?.[0]).toMatchObject({ message, extensions: { code: 'REASON_REQUIRED' } });
  });

  test('a pending payment -> 409 Only a completed payment can be refunded (this one is pending)', async () => {
    const shop = await service.createShop();
    const id = (await sellerClient(service.url, shop.apiKey).create(VALID_PAYMENT)).body.data.id;
    const answer = await support.run(REQUEST, { paymentId: id, reason: 'changed mind' });
    expect(answer.errors?.[0]).toMatchObject({ message: 'Only a completed payment can be refunded (this one is pending)', extensions: { code: 'REFUND_PAYMENT_NOT_COMPLETED' } });
  });

  test('an unknown payment -> Payment not found', async () => {
    const answer = await support.run(REQUEST, { paymentId: 'pay_000000000000000000000000', reason: 'x' });
    expect(answer.errors?.[0].message).toBe('Payment not found');
  });

  test('requests never add up to more than was paid: a second full request is refused, and the database refuses it too', async () => {
    const { paymentId, refundId } = await requested();
    const second = await support.run(REQUEST, { paymentId, reason: 'again' });
    expect(second.errors?.[0]).toMatchObject({
      message: 'The refund is more than remains refundable on this payment: 0 cents (0.00 USD), counting requests still open',
      extensions: { code: 'REFUND_EXCEEDS_REMAINING' },
    });
    await expect(
      sql(`insert into refunds (id, payment_id, amount, reason, status, requested_by_id) select 'ref_dup_' || md5(random()::text), payment_id, 1, 'dup', 'approved', requested_by_id from refunds where id = ?`, [refundId]),
    ).rejects.toThrow(/refunds of payment .* exceed its amount/);
  });

  test('a refunded payment cannot be refunded again', async () => {
    const { paymentId, refundId } = await requested();
    await finance.ok(APPROVE, { id: refundId });
    await eventually(async () => (await refundStatus(refundId)) === 'REFUNDED');
    const again = await support.run(REQUEST, { paymentId, reason: 'twice' });
    expect(again.errors?.[0].message).toBe('Only a completed payment can be refunded (this one is refunded)');
  });
});

describe('review', () => {
  test('reject with a reason; the payment stays completed; a rejected refund cannot be approved; a new request may follow', async () => {
    const { seller, paymentId, refundId } = await requested();
    const blank = await finance.run(REJECT, { id: refundId, reason: '' });
    expect(blank.errors?.[0].extensions?.code).toBe('REASON_REQUIRED');
    const rejected = await finance.ok(REJECT, { id: refundId, reason: 'Outside the return policy' });
    expect(rejected.rejectRefund).toEqual({ id: refundId, status: 'REJECTED', rejectionReason: 'Outside the return policy' });
    expect((await seller.retrieve(paymentId)).body.data.status).toBe('completed');

    const late = await finance.run(APPROVE, { id: refundId });
    expect(late.errors?.[0]).toMatchObject({ message: 'Only requested refunds can be approved (this one is rejected)', extensions: { code: 'REFUND_STATE_CONFLICT' } });
    const again = await support.ok(REQUEST, { paymentId, reason: 'The customer sent proof' });
    expect(again.requestRefund.status).toBe('REQUESTED');
  });

  test('an unknown refund -> Refund not found', async () => {
    const answer = await finance.run(APPROVE, { id: 'ref_nope' });
    expect(answer.errors?.[0]).toMatchObject({ message: 'Refund not found', extensions: { code: 'REFUND_NOT_FOUND' } });
  });

  test('the queue shows each request age and flags those past the 24-hour review window', async () => {
    const { refundId } = await requested();
    await sql(`update refunds set created_at = now() - interval '25 hours' where id = ?`, [refundId]);
    const queue = await admin.ok(QUEUE, { status: 'REQUESTED' });
    const entry = queue.refunds.items.find((r: { id: string }) => r.id === refundId);
    expect(entry.pastReviewWindow).toBe(true);
    expect(entry.ageSeconds).toBeGreaterThanOrEqual(25 * 3600);
    // Oldest first: the overdue request leads the queue.
    expect(queue.refunds.items[0].pastReviewWindow).toBe(true);
  });
});

describe('a payment is refunded at most once, whatever runs concurrently', () => {
  test('10 simultaneous approvals: one wins, the others are told; 10 simultaneous executions and sweeps: one refund debit', async () => {
    const { shop, paymentId, refundId } = await requested(5000);
    const approvals = await Promise.all(Array.from({ length: 10 }, () => finance.run(APPROVE, { id: refundId })));
    expect(approvals.filter((a) => !a.errors).length).toBe(1);
    for (const a of approvals.filter((x) => x.errors)) expect(a.errors![0].message).toMatch(/^Only requested refunds can be approved \(this one is (approved|processing|refunded)\)$/);

    const deps = { processor: service.services.checkout.processor, logger: service.services.checkout.logger, processingTimeoutMs: 60_000, baseUrl: service.url, chargebackStands: service.services.refunds.chargebackStands, reweighDisputes: service.services.refunds.reweighDisputes };
    const outcomes = await Promise.all([
      ...Array.from({ length: 10 }, () => executeRefund(service.em(), deps, refundId)),
      ...Array.from({ length: 3 }, () => service.services.refunds.sweep()),
    ]);
    await eventually(async () => (await refundStatus(refundId)) === 'REFUNDED');
    expect(outcomes.filter((o) => o === 'refunded').length).toBeLessThanOrEqual(1);

    const debits = await service.em().find(LedgerEntry, { paymentId, kind: 'refund', account: LedgerAccount.SELLER_BALANCE });
    expect(debits.map((d) => d.amount)).toEqual([-5000]);
    expect(await sellerBalance(service.em(), shop.seller.id)).toBe(BigInt(4250 - 5000));
    expect((await service.em().findOneOrFail(Refund, refundId)).attempts).toBe(1);
  });
});

describe('nothing is lost: the sweep carries out what no job did', () => {
  test('an approved refund whose job never ran (crash after approval, Redis away) is carried out by the sweep', async () => {
    const { seller, paymentId, refundId } = await requested();
    // Approved in the database only: no job was ever queued for it.
    await sql(`update refunds set status = 'approved', reviewed_at = now(), reviewed_by_id = requested_by_id where id = ?`, [refundId]);
    await eventually(async () => (await seller.retrieve(paymentId)).body.data.status === 'refunded', 10_000, 'the sweep');
    expect(await refundStatus(refundId)).toBe('REFUNDED');
  });

  test('a refund left processing by a worker that died is taken over once its claim is stale', async () => {
    const { paymentId, refundId } = await requested();
    await sql(`update refunds set status = 'processing', attempts = 1, claimed_at = now() - interval '1 hour', reviewed_at = now() where id = ?`, [refundId]);
    await eventually(async () => (await refundStatus(refundId)) === 'REFUNDED', 10_000, 'the take-over');
    expect((await admin.ok(ONE, { id: refundId })).refund.attempts).toBe(2);
    expect(await service.em().count(LedgerEntry, { paymentId, kind: 'refund' })).toBe(2);
  });

  test('a refund the acquirer declines is FAILED with its reason; the payment stays completed and nothing is booked', async () => {
    const { seller, paymentId, refundId } = await requested();
    await sql(`update payments set processor_reference = 'not_ours_123' where id = ?`, [paymentId]);
    await finance.ok(APPROVE, { id: refundId });
    await eventually(async () => (await refundStatus(refundId)) === 'FAILED');
    expect((await admin.ok(ONE, { id: refundId })).refund.failureReason).toBe('unknown_authorization');
    expect((await seller.retrieve(paymentId)).body.data.status).toBe('completed');
    expect(await service.em().count(LedgerEntry, { paymentId, kind: 'refund' })).toBe(0);
  });
});

describe('without Redis', () => {
  // A database of its own: the file's service would otherwise sweep up the refund too, and log it as its own.
  const own = useEmptyDatabase('payments_refunds_local');

  test('approval runs the refund job in the process', async () => {
    const local = await startTestService({ REDIS_URL: '', REFUND_SWEEP_INTERVAL_MS: '3600000', DATABASE_URL: own.url });
    try {
      const localSupport = await adminClient(local, AdminRole.SUPPORT);
      const localFinance = await adminClient(local, AdminRole.FINANCE);
      const { seller, paymentId } = await completedPayment(local);
      const { requestRefund } = await localSupport.ok(REQUEST, { paymentId, reason: 'duplicate order' });
      await localFinance.ok(APPROVE, { id: requestRefund.id });
      await eventually(async () => (await seller.retrieve(paymentId)).body.data.status === 'refunded');
      // The job logs after its transaction commits, so the line may trail the status by a moment.
      const carriedOut = () => local.logs.some((line) => line.msg === 'refund carried out' && line.refundId === requestRefund.id);
      expect(await eventually(async () => carriedOut(), 5_000, 'the refund job log line')).toBe(true);
    } finally {
      await local.stop();
    }
  });
});
