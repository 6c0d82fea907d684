import type { EntityManager } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { AdminRole } from '../../src/modules/admins/admin-role';
import type { Admin } from '../../src/modules/admins/admin.entity';
import { AuditEntry } from '../../src/modules/audit/audit-entry.entity';
import { chargebackStands, reweighDisputes } from '../../src/modules/disputes/dispute.service';
import { MailOutboxEntry } from '../../src/modules/notifications/mail-outbox.entity';
import { Payment } from '../../src/modules/payments/payment.entity';
import { PaymentStatus } from '../../src/modules/payments/payment-status';
import { Refund, RefundStatus } from '../../src/modules/refunds/refund.entity';
import {
  approveRefund,
  CHARGEBACK_STANDS_REASON,
  executeRefund,
  rejectRefund,
  requestRefund,
  reverseRefund,
  settleNotifiedRefund,
  type ChargebackCheck,
  type DisputeReweigh,
} from '../../src/modules/refunds/refund.service';
import type { CardProcessor, RefundRequest } from '../../src/platform/processor/card-processor';
import { createLogger } from '../../src/shared/logger';
import { refusedWith } from '../support/domain-errors';
import { useModuleDatabase } from '../support/module-database';
import { testRun } from '../support/test-env';

/**
 * What guards a refund (src/modules/refunds/refund.service.ts), on the run's database: a standing chargeback stops
 * its request, approval and sending; who asked decides its audit entry; a customer's address gets a tracking link;
 * each move holds the payment's row lock while it decides; and what a notification or reversal that cannot apply
 * yet says, for the admins who read it. refunds.test.ts and refund-execution.test.ts hold the amounts and moves.
 */
const db = useModuleDatabase();
let support: Admin;
let finance: Admin;
/** Another connection, to look at the payment's row lock while a move holds it. */
let prober: Client;
beforeAll(async () => {
  support = await db.newAdmin(AdminRole.SUPPORT);
  finance = await db.newAdmin(AdminRole.FINANCE);
  prober = new Client({ connectionString: testRun().databaseUrl });
  await prober.connect();
});
afterAll(() => prober.end());

const REASON = 'Parcel returned';
const standing: ChargebackCheck = async () => true;
const noChargeback: ChargebackCheck = async () => false;

/** Whether a lock of `mode` on the payment's row would have to wait: another session holds a conflicting one. */
async function rowLocked(paymentId: string, mode: 'update' | 'share'): Promise<boolean> {
  try {
    await prober.query(`select 1 from "payments" where "id" = $1 for ${mode} nowait`, [paymentId]);
    return false;
  } catch (error) {
    if ((error as { code?: string }).code === '55P03') return true;
    throw error;
  }
}
/** The payment's row lock as a move holds it: `exclusive` (FOR UPDATE), `shared` (FOR SHARE) or `none`. */
async function lockOn(paymentId: string): Promise<'exclusive' | 'shared' | 'none'> {
  if (await rowLocked(paymentId, 'share')) return 'exclusive';
  return (await rowLocked(paymentId, 'update')) ? 'shared' : 'none';
}

/** A chargeback check, and a dispute reweigh, that note the payment's row lock they are called under. */
function lockWatch() {
  const seen: string[] = [];
  const check: ChargebackCheck = async (tx, paymentId) => (seen.push(await lockOn(paymentId)), chargebackStands(tx, paymentId));
  const reweigh: DisputeReweigh = async (tx, paymentId) => (seen.push(await lockOn(paymentId)), reweighDisputes(tx, paymentId));
  return { seen, check, reweigh };
}

function sendingDeps(answer: (request: RefundRequest) => Promise<unknown>, overrides: { chargebackStands?: ChargebackCheck; reweighDisputes?: DisputeReweigh } = {}) {
  const sent: RefundRequest[] = [];
  const processor = { refund: (request: RefundRequest) => (sent.push(request), answer(request)) } as unknown as CardProcessor;
  const deps = { processor, logger: createLogger('silent'), processingTimeoutMs: 60_000, baseUrl: 'https://pay.example', chargebackStands, reweighDisputes, ...overrides };
  return { sent, deps };
}
const refunded = async ({ refundId }: RefundRequest) => ({ kind: 'refunded', reference: `psp-${refundId}` });
const received = async ({ refundId }: RefundRequest) => ({ kind: 'pending', reference: `psp-${refundId}` });

const paid = async (label: string, amount = 1000) => db.completedPayment(await db.newShop(label), amount);
const request = (paymentId: string, amount: number | null, check: ChargebackCheck = noChargeback, em: EntityManager = db.em()) =>
  requestRefund(em, check, support, paymentId, REASON, null, amount);
async function approved(paymentId: string, amount: number): Promise<string> {
  const refund = await request(paymentId, amount);
  await approveRefund(db.em(), noChargeback, finance, refund.id);
  return refund.id;
}
const refundOf = (id: string) => db.em().findOneOrFail(Refund, { id });
/** The hash of the refund's tracking token (the entity never loads it). */
const trackingHashOf = async (id: string) => (await db.em().execute('select "tracking_token_hash" as hash from "refunds" where "id" = ?', [id]))[0].hash;
const paymentStatus = async (id: string) => (await db.em().findOneOrFail(Payment, { id })).status;

describe('a standing chargeback', () => {
  test('refuses a request and writes nothing', async () => {
    const paymentId = await paid('guard-cb-request');
    expect((await refusedWith(request(paymentId, 100, standing))).code).toBe('REFUND_CHARGEBACK_STANDS');
    expect(await db.em().count(Refund, { payment: paymentId })).toBe(0);
  });

  test('refuses an approval: the refund stays requested', async () => {
    const refund = await request(await paid('guard-cb-approve'), 100);
    expect((await refusedWith(approveRefund(db.em(), standing, finance, refund.id))).code).toBe('REFUND_CHARGEBACK_STANDS');
    expect((await refundOf(refund.id)).status).toBe(RefundStatus.REQUESTED);
  });

  test('landed after the approval: the refund is not sent and fails, and the payment stays completed', async () => {
    const paymentId = await paid('guard-cb-send');
    const refundId = await approved(paymentId, 400);
    const { sent, deps } = sendingDeps(refunded, { chargebackStands: standing });
    expect(await executeRefund(db.em(), deps, refundId)).toBe('failed');
    expect(sent).toEqual([]);
    expect(await refundOf(refundId)).toMatchObject({ status: RefundStatus.FAILED, failureReason: 'chargeback_stands' });
    expect(CHARGEBACK_STANDS_REASON).toBe('chargeback_stands');
    expect(await paymentStatus(paymentId)).toBe(PaymentStatus.COMPLETED);
  });
});

describe('who asks, and who is told', () => {
  test('whoever recorded a request is told they cannot approve their own refund request', async () => {
    const refund = await request(await paid('guard-self'), 100);
    const refused = await refusedWith(approveRefund(db.em(), noChargeback, support, refund.id));
    expect(refused.code).toBe('SELF_APPROVAL_NOT_ALLOWED');
    expect(refused.message).toBe('You recorded this refund request; another finance admin must approve it (four eyes)');
  });

  const audited = async (refundId: string) => (await db.em().find(AuditEntry, { targetId: refundId })).map((e) => ({ action: e.action, targetType: e.targetType, admin: e.adminId ?? null, reason: e.reason, details: e.details }));

  test("support's request is audited with its payment and amount; the seller's own is not, and names no admin", async () => {
    const paymentId = await paid('guard-who');
    const bySupport = await request(paymentId, 300);
    expect(bySupport.requestedBy?.id).toBe(support.id);
    expect(await audited(bySupport.id)).toEqual([{ action: 'refund.requested', targetType: 'refund', admin: support.id, reason: REASON, details: { paymentId, amount: 300 } }]);

    const payment = await db.em().findOneOrFail(Payment, { id: paymentId }, { populate: ['shop'] });
    const bySeller = await requestRefund(db.em(), noChargeback, null, paymentId, REASON, payment.shop.seller.id, 200);
    expect(await refundOf(bySeller.id)).toMatchObject({ amount: 200, requestedBy: null, status: RefundStatus.REQUESTED });
    expect(await audited(bySeller.id)).toEqual([]);
  });

  test('someone must ask: an admin or the seller; a seller asking for another seller\'s payment finds none', async () => {
    const paymentId = await paid('guard-nobody');
    expect((await refusedWith(requestRefund(db.em(), noChargeback, null, paymentId, REASON, null, 100))).code).toBe('FORBIDDEN');
    const other = await db.newShop('guard-other-seller');
    expect((await refusedWith(requestRefund(db.em(), noChargeback, null, paymentId, REASON, other.seller.id, 100))).code).toBe('PAYMENT_NOT_FOUND');
    expect(await db.em().count(Refund, { payment: paymentId })).toBe(0);
  });

  test("a customer's address gets a tracking link, mailed with the request; without one, neither", async () => {
    const withAddress = await paid('guard-tracked');
    await db.em().nativeUpdate(Payment, { id: withAddress }, { customerEmail: 'ada@example.com' });
    const tracked = await request(withAddress, 100);
    expect(await trackingHashOf(tracked.id)).toEqual(expect.any(String));
    const mails = await db.em().find(MailOutboxEntry, { subjectId: tracked.id });
    expect(mails.map((m) => [m.kind, m.recipient, m.paymentId])).toEqual([['refund-requested', 'ada@example.com', withAddress]]);
    await db.em().nativeDelete(MailOutboxEntry, { paymentId: withAddress });

    const untracked = await request(await paid('guard-untracked'), 100);
    expect(await trackingHashOf(untracked.id)).toBeNull();
    expect(await db.em().count(MailOutboxEntry, { subjectId: untracked.id })).toBe(0);
  });
});

describe("each move decides under the payment's row lock", () => {
  test('a request reads the payment and asks about a chargeback under an exclusive lock', async () => {
    const watch = lockWatch();
    const paymentId = await paid('guard-lock-request');
    await request(paymentId, 100, watch.check);
    expect(watch.seen).toEqual(['exclusive']);
  });

  test('a request reads the payment as it is now, not as its unit of work last saw it', async () => {
    const paymentId = await paid('guard-fresh-request');
    const em = db.em();
    await em.findOneOrFail(Payment, { id: paymentId });
    await db.em().nativeUpdate(Payment, { id: paymentId }, { status: PaymentStatus.REFUNDED });
    expect((await refusedWith(request(paymentId, 100, noChargeback, em))).code).toBe('REFUND_PAYMENT_NOT_COMPLETED');
  });

  test('sending asks about a chargeback under a shared lock, and books under an exclusive one', async () => {
    const watch = lockWatch();
    const refundId = await approved(await paid('guard-lock-send'), 1000);
    const { deps } = sendingDeps(refunded, { chargebackStands: watch.check, reweighDisputes: watch.reweigh });
    expect(await executeRefund(db.em(), deps, refundId)).toBe('refunded');
    expect(watch.seen).toEqual(['shared', 'exclusive']);
  });

  test('a decline, a failure after success and a reversal each move under an exclusive lock', async () => {
    const paymentId = await paid('guard-lock-fail');
    const declineWatch = lockWatch();
    const declined = sendingDeps(async () => ({ kind: 'declined', reason: 'No' }), { reweighDisputes: declineWatch.reweigh });
    expect(await executeRefund(db.em(), declined.deps, await approved(paymentId, 100))).toBe('failed');
    expect(declineWatch.seen).toEqual(['exclusive']);

    const failedAfter = lockWatch();
    const first = await approved(paymentId, 200);
    await executeRefund(db.em(), sendingDeps(refunded).deps, first);
    expect(await settleNotifiedRefund(db.em(), sendingDeps(refunded, { reweighDisputes: failedAfter.reweigh }).deps, first, { kind: 'declined', reason: 'Refund Failed' })).toEqual({ effect: 'settled' });
    expect(failedAfter.seen).toEqual(['exclusive']);

    const reversed = lockWatch();
    const second = await approved(paymentId, 300);
    await executeRefund(db.em(), sendingDeps(refunded).deps, second);
    expect(await reverseRefund(db.em(), { reweighDisputes: reversed.reweigh }, second, { amount: 300, currency: 'USD' })).toEqual({ effect: 'moved' });
    expect(reversed.seen).toEqual(['exclusive']);
  });
});

describe('what an outcome that cannot apply yet says, for the admins who read it', () => {
  test('a notification for a refund not sent waits, for a rejected one is flagged', async () => {
    const paymentId = await paid('guard-says-notified');
    const { deps } = sendingDeps(refunded);
    const requested = await request(paymentId, 100);
    expect(await settleNotifiedRefund(db.em(), deps, requested.id, { kind: 'refunded', reference: 'x' })).toEqual({
      effect: 'waiting',
      problem: `refund ${requested.id} is requested: its outcome waits until it is sent`,
    });
    const approvedId = await approved(paymentId, 100);
    expect(await settleNotifiedRefund(db.em(), deps, approvedId, { kind: 'declined', reason: 'No' })).toEqual({
      effect: 'waiting',
      problem: `refund ${approvedId} is approved: its outcome waits until it is sent`,
    });
    await rejectRefund(db.em(), finance, requested.id, 'Customer kept the goods');
    expect(await settleNotifiedRefund(db.em(), deps, requested.id, { kind: 'refunded', reference: 'x' })).toEqual({
      effect: 'flagged',
      problem: `an outcome for refund ${requested.id}, which was rejected and never sent`,
    });
  });

  test('a reversal: of no refund, of other money, of a refund not carried out yet, of a declined one', async () => {
    const paymentId = await paid('guard-says-reversal');
    const reverse = (refundId: string, amount: number, currency = 'USD') => reverseRefund(db.em(), { reweighDisputes }, refundId, { amount, currency });
    expect(await reverse('ref_missing', 300)).toEqual({ effect: 'flagged', problem: 'no refund ref_missing' });

    const refundId = await approved(paymentId, 300);
    expect(await reverse(refundId, 301)).toEqual({ effect: 'flagged', problem: 'reversal of 301 USD for a refund of 300 usd' });
    expect(await reverse(refundId, 300, 'EUR')).toEqual({ effect: 'flagged', problem: 'reversal of 300 EUR for a refund of 300 usd' });
    expect(await reverse(refundId, 300)).toEqual({ effect: 'waiting', problem: `a reversal of refund ${refundId}, which is approved: it waits for the refund's success` });
    await executeRefund(db.em(), sendingDeps(received).deps, refundId);
    expect(await reverse(refundId, 300)).toEqual({ effect: 'waiting', problem: `a reversal of refund ${refundId}, which is processing: it waits for the refund's success` });

    const declined = await approved(paymentId, 200);
    await executeRefund(db.em(), sendingDeps(async () => ({ kind: 'declined', reason: 'No' })).deps, declined);
    expect(await reverse(declined, 200)).toEqual({ effect: 'flagged', problem: 'a reversal of a refund that is failed' });
    expect((await refundOf(declined)).status).toBe(RefundStatus.FAILED);
  });
});
