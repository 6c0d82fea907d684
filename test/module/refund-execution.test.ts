import { AdminRole } from '../../src/modules/admins/admin-role';
import type { Admin } from '../../src/modules/admins/admin.entity';
import { chargebackStands, reweighDisputes } from '../../src/modules/disputes/dispute.service';
import { LedgerEntry } from '../../src/modules/ledger/ledger-entry.entity';
import { sellerBalance } from '../../src/modules/ledger/ledger.service';
import { Payment } from '../../src/modules/payments/payment.entity';
import { PaymentStatus } from '../../src/modules/payments/payment-status';
import { Refund, RefundStatus } from '../../src/modules/refunds/refund.entity';
import {
  approveRefund,
  executeRefund,
  refundsNeedingExecution,
  rejectRefund,
  requestRefund,
  reverseRefund,
  settleLookedUpRefund,
  settleNotifiedRefund,
} from '../../src/modules/refunds/refund.service';
import type { NewShop } from '../../src/modules/identity/shop-provisioning';
import { WebhookEvent } from '../../src/modules/webhooks/webhook-event.entity';
import type { CardProcessor, RefundRequest, RefundResult } from '../../src/platform/processor/card-processor';
import { createLogger } from '../../src/shared/logger';
import { Client } from 'pg';
import { useModuleDatabase } from '../support/module-database';
import { testRun } from '../support/test-env';

/**
 * Carrying out an approved refund (src/modules/refunds/refund.service.ts) on the run's database, with the acquirer's
 * answer chosen per test: the live answer, a look-up's and a notification's each move the refund once, the seller is
 * debited exactly the refund and credited back when the money returns, and the payment is refunded only once its
 * refunds add up to it. Disputes are in disputes.test.ts.
 */
const db = useModuleDatabase();
const AMOUNT = 1000;
let requester: Admin;
let approver: Admin;
beforeAll(async () => {
  requester = await db.newAdmin(AdminRole.SUPPORT);
  approver = await db.newAdmin(AdminRole.FINANCE);
});

/** An acquirer answering every refund with `answer`, and the requests it was sent. */
function acquirer(answer: (request: RefundRequest) => Promise<RefundResult>) {
  const sent: RefundRequest[] = [];
  const processor = { refund: (request: RefundRequest) => (sent.push(request), answer(request)) } as unknown as CardProcessor;
  return { sent, deps: { processor, logger: createLogger('silent'), processingTimeoutMs: 60_000, baseUrl: 'https://pay.example', chargebackStands, reweighDisputes } };
}
const refunding = () => acquirer(async ({ refundId }) => ({ kind: 'refunded', reference: `psp-${refundId}` }));
const receiving = () => acquirer(async ({ refundId }) => ({ kind: 'pending', reference: `psp-${refundId}` }));

async function paidShop(label: string): Promise<{ shop: NewShop; paymentId: string }> {
  const shop = await db.newShop(label);
  return { shop, paymentId: await db.completedPayment(shop, AMOUNT) };
}
async function approved(paymentId: string, amount: number): Promise<string> {
  const refund = await requestRefund(db.em(), chargebackStands, requester, paymentId, 'Parcel returned', null, amount);
  await approveRefund(db.em(), chargebackStands, approver, refund.id);
  return refund.id;
}
const refundOf = (id: string) => db.em().findOneOrFail(Refund, { id });
const paymentStatus = async (id: string) => (await db.em().findOneOrFail(Payment, { id })).status;
const balanceOf = async (shop: NewShop) => Number(await sellerBalance(db.em(), shop.seller.id));
/** A refund's journal lines, as "account kind amount". */
const journalOf = async (refundId: string) =>
  (await db.em().find(LedgerEntry, { refundId }, { orderBy: { id: 'asc' } })).map((e) => `${e.account} ${e.kind} ${e.amount}`);
const eventsOf = async (paymentId: string) => (await db.em().find(WebhookEvent, { paymentId }, { orderBy: { id: 'asc' } })).map((e) => e.type);

describe('the live answer', () => {
  test('refunded: the refund and the payment move once, the seller is debited the amount, and the acquirer is asked with the refund as key', async () => {
    const { shop, paymentId } = await paidShop('exec-full');
    const before = await balanceOf(shop);
    const refundId = await approved(paymentId, AMOUNT);
    const { sent, deps } = refunding();
    expect(await executeRefund(db.em(), deps, refundId)).toBe('refunded');
    expect(sent).toEqual([expect.objectContaining({ refundId, paymentId, reference: `psp-${paymentId}`, amount: AMOUNT, currency: 'usd' })]);
    expect(await refundOf(refundId)).toMatchObject({ status: RefundStatus.REFUNDED, processorReference: `psp-${refundId}`, attempts: 1 });
    expect(await paymentStatus(paymentId)).toBe(PaymentStatus.REFUNDED);
    expect(await journalOf(refundId)).toEqual([`seller_balance refund -${AMOUNT}`, `customer_funds refund ${AMOUNT}`]);
    expect(await balanceOf(shop)).toBe(before - AMOUNT);
    expect(await eventsOf(paymentId)).toContain('payment.refunded');
    // Again: nothing to claim, nothing sent, nothing booked.
    expect(await executeRefund(db.em(), deps, refundId)).toBe('not-claimed');
    expect(sent).toHaveLength(1);
    expect(await journalOf(refundId)).toHaveLength(2);
  });

  test('a partial refund leaves the payment completed; the one that completes its amount refunds it', async () => {
    const { shop, paymentId } = await paidShop('exec-partial');
    const before = await balanceOf(shop);
    const { deps } = refunding();
    expect(await executeRefund(db.em(), deps, await approved(paymentId, 400))).toBe('refunded');
    expect(await paymentStatus(paymentId)).toBe(PaymentStatus.COMPLETED);
    expect(await executeRefund(db.em(), deps, await approved(paymentId, 599))).toBe('refunded');
    expect(await paymentStatus(paymentId)).toBe(PaymentStatus.COMPLETED);
    expect(await executeRefund(db.em(), deps, await approved(paymentId, 1))).toBe('refunded');
    expect(await paymentStatus(paymentId)).toBe(PaymentStatus.REFUNDED);
    expect(await balanceOf(shop)).toBe(before - AMOUNT);
  });

  test('declined: the refund fails with the reason, nothing is booked, the seller is told by a refund.failed event', async () => {
    const { shop, paymentId } = await paidShop('exec-declined');
    const before = await balanceOf(shop);
    const refundId = await approved(paymentId, 300);
    const { deps } = acquirer(async () => ({ kind: 'declined', reason: 'Insufficient balance' }));
    expect(await executeRefund(db.em(), deps, refundId)).toBe('failed');
    expect(await refundOf(refundId)).toMatchObject({ status: RefundStatus.FAILED, failureReason: 'Insufficient balance' });
    expect((await refundOf(refundId)).failedAt).toBeInstanceOf(Date);
    expect(await paymentStatus(paymentId)).toBe(PaymentStatus.COMPLETED);
    expect(await journalOf(refundId)).toEqual([]);
    expect(await balanceOf(shop)).toBe(before);
    expect(await eventsOf(paymentId)).toContain('refund.failed');
  });

  test('no answer: the refund stays processing and is taken over only once its claim is stale and unacknowledged', async () => {
    const { paymentId } = await paidShop('exec-unknown');
    const refundId = await approved(paymentId, 300);
    const { deps } = acquirer(async () => Promise.reject(new Error('socket hang up')));
    expect(await refundsNeedingExecution(db.em(), 60_000, 10_000)).toContain(refundId);
    expect(await executeRefund(db.em(), deps, refundId)).toBe('outcome-unknown');
    expect(await refundOf(refundId)).toMatchObject({ status: RefundStatus.PROCESSING, attempts: 1 });
    // A fresh claim is not taken over; a stale one is, counting the attempt.
    expect(await refundsNeedingExecution(db.em(), 60_000, 10_000)).not.toContain(refundId);
    expect(await executeRefund(db.em(), deps, refundId)).toBe('not-claimed');
    await db.em().nativeUpdate(Refund, { id: refundId }, { claimedAt: new Date(Date.now() - 120_000) });
    expect(await refundsNeedingExecution(db.em(), 60_000, 10_000)).toContain(refundId);
    expect(await executeRefund(db.em(), refunding().deps, refundId)).toBe('refunded');
    expect((await refundOf(refundId)).attempts).toBe(2);
  });

  test('received: the refund waits processing with the reference, and a stale claim of it is not sent again', async () => {
    const { paymentId } = await paidShop('exec-received');
    const refundId = await approved(paymentId, 300);
    expect(await executeRefund(db.em(), receiving().deps, refundId)).toBe('awaiting-acquirer');
    expect(await refundOf(refundId)).toMatchObject({ status: RefundStatus.PROCESSING, processorReference: `psp-${refundId}` });
    await db.em().nativeUpdate(Refund, { id: refundId }, { claimedAt: new Date(Date.now() - 120_000) });
    expect(await refundsNeedingExecution(db.em(), 60_000, 10_000)).not.toContain(refundId);
    const again = refunding();
    expect(await executeRefund(db.em(), again.deps, refundId)).toBe('not-claimed');
    expect(again.sent).toEqual([]);
  });
});

describe('a look-up and a notification settle what the live answer left', () => {
  test('notified refunded: booked once; told again, nothing to do', async () => {
    const { shop, paymentId } = await paidShop('notified-refunded');
    const before = await balanceOf(shop);
    const refundId = await approved(paymentId, AMOUNT);
    const { deps } = receiving();
    await executeRefund(db.em(), deps, refundId);
    expect(await settleNotifiedRefund(db.em(), deps, refundId, { kind: 'refunded', reference: 'psp-n' })).toEqual({ effect: 'settled' });
    expect(await refundOf(refundId)).toMatchObject({ status: RefundStatus.REFUNDED, processorReference: 'psp-n' });
    expect(await paymentStatus(paymentId)).toBe(PaymentStatus.REFUNDED);
    expect(await settleNotifiedRefund(db.em(), deps, refundId, { kind: 'refunded', reference: 'psp-n' })).toEqual({ effect: 'nothing-to-do' });
    expect(await balanceOf(shop)).toBe(before - AMOUNT);
  });

  test('notified declined after success: the seller is credited back and the payment is refundable again', async () => {
    const { shop, paymentId } = await paidShop('notified-failed-after');
    const before = await balanceOf(shop);
    const refundId = await approved(paymentId, AMOUNT);
    const { deps } = refunding();
    await executeRefund(db.em(), deps, refundId);
    expect(await settleNotifiedRefund(db.em(), deps, refundId, { kind: 'declined', reason: 'Refund Failed' })).toEqual({ effect: 'settled' });
    expect(await refundOf(refundId)).toMatchObject({ status: RefundStatus.FAILED, failureReason: 'Refund Failed' });
    expect(await paymentStatus(paymentId)).toBe(PaymentStatus.COMPLETED);
    expect(await journalOf(refundId)).toEqual([
      `seller_balance refund -${AMOUNT}`,
      `customer_funds refund ${AMOUNT}`,
      `customer_funds refund_failed -${AMOUNT}`,
      `seller_balance refund_failed ${AMOUNT}`,
    ]);
    expect(await balanceOf(shop)).toBe(before);
    // Told again, and a late success: nothing moves.
    expect(await settleNotifiedRefund(db.em(), deps, refundId, { kind: 'declined', reason: 'Refund Failed' })).toEqual({ effect: 'nothing-to-do' });
    expect(await settleNotifiedRefund(db.em(), deps, refundId, { kind: 'refunded', reference: 'late' })).toEqual({ effect: 'nothing-to-do' });
    expect(await balanceOf(shop)).toBe(before);
  });

  test('a failure told while the success is being booked: read as processing, weighed again once booked, and the seller credited back', async () => {
    const { shop, paymentId } = await paidShop('notified-failed-racing');
    const before = await balanceOf(shop);
    const refundId = await approved(paymentId, AMOUNT);
    const holder = new Client({ connectionString: testRun().databaseUrl });
    const watcher = new Client({ connectionString: testRun().databaseUrl });
    await Promise.all([holder.connect(), watcher.connect()]);
    /** Until `count` sessions other than ours wait for the payment's row lock. */
    const waiting = async (count: number) => {
      for (let i = 0; i < 1000; i++) {
        const { rows } = await watcher.query(`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database() and pid <> $1`, [(holder as unknown as { processID: number }).processID]);
        if (rows[0].n >= count) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`${count} sessions never waited for the payment's lock`);
    };
    try {
      // While the acquirer answers, another session takes the payment's lock: the live answer's booking queues for it
      // first, then the failure reads the refund still processing and queues behind it.
      const { deps } = acquirer(async () => {
        await holder.query('begin');
        await holder.query('select 1 from "payments" where "id" = $1 for update', [paymentId]);
        return { kind: 'refunded', reference: 'psp-racing' };
      });
      const executed = executeRefund(db.em(), deps, refundId);
      await waiting(1);
      const notified = settleNotifiedRefund(db.em(), refunding().deps, refundId, { kind: 'declined', reason: 'Refund Failed' });
      await waiting(2);
      await holder.query('rollback');
      expect(await executed).toBe('refunded');
      expect(await notified).toEqual({ effect: 'settled' });
    } finally {
      await Promise.all([holder.end(), watcher.end()]);
    }
    expect(await refundOf(refundId)).toMatchObject({ status: RefundStatus.FAILED, failureReason: 'Refund Failed' });
    expect(await journalOf(refundId)).toEqual([`seller_balance refund -${AMOUNT}`, `customer_funds refund ${AMOUNT}`, `customer_funds refund_failed -${AMOUNT}`, `seller_balance refund_failed ${AMOUNT}`]);
    expect(await balanceOf(shop)).toBe(before);
    expect(await paymentStatus(paymentId)).toBe(PaymentStatus.COMPLETED);
  });

  test('an outcome for a refund not sent waits; for a rejected one it is flagged; for none it is nothing to do', async () => {
    const { paymentId } = await paidShop('notified-early');
    const { deps } = refunding();
    const requested = await requestRefund(db.em(), chargebackStands, requester, paymentId, 'Parcel returned', null, 100);
    expect(await settleNotifiedRefund(db.em(), deps, requested.id, { kind: 'refunded', reference: 'x' })).toMatchObject({ effect: 'waiting' });
    const approvedId = await approved(paymentId, 100);
    expect(await settleNotifiedRefund(db.em(), deps, approvedId, { kind: 'refunded', reference: 'x' })).toMatchObject({ effect: 'waiting' });
    await rejectRefund(db.em(), approver, requested.id, 'Customer kept the goods');
    expect(await settleNotifiedRefund(db.em(), deps, requested.id, { kind: 'refunded', reference: 'x' })).toMatchObject({ effect: 'flagged' });
    expect(await settleNotifiedRefund(db.em(), deps, 'ref_missing', { kind: 'refunded', reference: 'x' })).toEqual({ effect: 'nothing-to-do' });
    expect((await refundOf(approvedId)).status).toBe(RefundStatus.APPROVED);
  });

  test('a look-up: refunded books, declined fails, not found sends it again under the same key', async () => {
    const { paymentId } = await paidShop('looked-up');
    const { deps } = acquirer(async () => Promise.reject(new Error('timeout')));
    const [found, declined, lost] = [await approved(paymentId, 100), await approved(paymentId, 200), await approved(paymentId, 300)];
    for (const id of [found, declined, lost]) await executeRefund(db.em(), deps, id);
    expect(await settleLookedUpRefund(db.em(), deps, found, { kind: 'refunded', reference: 'psp-l' })).toBe('refunded');
    expect(await settleLookedUpRefund(db.em(), deps, declined, { kind: 'declined', reason: 'Refused' })).toBe('failed');
    expect(await settleLookedUpRefund(db.em(), deps, lost, { kind: 'not_found' })).toBe('requeued');
    expect((await Promise.all([found, declined, lost].map(refundOf))).map((r) => r.status)).toEqual([RefundStatus.REFUNDED, RefundStatus.FAILED, RefundStatus.APPROVED]);
    expect(await refundsNeedingExecution(db.em(), 60_000, 10_000)).toContain(lost);
    // Requeued once: a second "not found" finds nothing to move.
    expect(await settleLookedUpRefund(db.em(), deps, lost, { kind: 'not_found' })).toBe('not-claimed');
  });
});

describe('a reversal gives the seller the money back', () => {
  test('a refund in full reversed: the seller is credited back once and the payment is completed again', async () => {
    const { shop, paymentId } = await paidShop('reversed');
    const before = await balanceOf(shop);
    const refundId = await approved(paymentId, AMOUNT);
    await executeRefund(db.em(), refunding().deps, refundId);
    expect(await reverseRefund(db.em(), { reweighDisputes }, refundId, { amount: AMOUNT, currency: 'USD' })).toEqual({ effect: 'moved' });
    expect((await refundOf(refundId)).status).toBe(RefundStatus.REVERSED);
    expect(await paymentStatus(paymentId)).toBe(PaymentStatus.COMPLETED);
    expect(await journalOf(refundId)).toEqual([
      `seller_balance refund -${AMOUNT}`,
      `customer_funds refund ${AMOUNT}`,
      `customer_funds refund_reversed -${AMOUNT}`,
      `seller_balance refund_reversed ${AMOUNT}`,
    ]);
    expect(await balanceOf(shop)).toBe(before);
    expect(await reverseRefund(db.em(), { reweighDisputes }, refundId, { amount: AMOUNT, currency: 'USD' })).toEqual({ effect: 'nothing-to-do' });
    expect(await balanceOf(shop)).toBe(before);
  });

  test('a partial refund reversed leaves the payment completed', async () => {
    const { paymentId } = await paidShop('reversed-partial');
    const refundId = await approved(paymentId, 300);
    await executeRefund(db.em(), refunding().deps, refundId);
    expect(await reverseRefund(db.em(), { reweighDisputes }, refundId, { amount: 300, currency: 'usd' })).toEqual({ effect: 'moved' });
    expect(await paymentStatus(paymentId)).toBe(PaymentStatus.COMPLETED);
  });

  test('a reversal that does not fit is flagged, one before the success waits, one after a failure changes nothing', async () => {
    const { shop, paymentId } = await paidShop('reversal-misfit');
    const refundId = await approved(paymentId, 300);
    expect(await reverseRefund(db.em(), { reweighDisputes }, refundId, { amount: 300, currency: 'USD' })).toMatchObject({ effect: 'waiting' });
    await executeRefund(db.em(), receiving().deps, refundId);
    expect(await reverseRefund(db.em(), { reweighDisputes }, refundId, { amount: 300, currency: 'USD' })).toMatchObject({ effect: 'waiting' });
    await settleNotifiedRefund(db.em(), refunding().deps, refundId, { kind: 'refunded', reference: 'psp' });
    const before = await balanceOf(shop);
    expect(await reverseRefund(db.em(), { reweighDisputes }, refundId, { amount: 301, currency: 'USD' })).toMatchObject({ effect: 'flagged' });
    expect(await reverseRefund(db.em(), { reweighDisputes }, refundId, { amount: 300, currency: 'EUR' })).toMatchObject({ effect: 'flagged' });
    expect(await reverseRefund(db.em(), { reweighDisputes }, 'ref_missing', { amount: 300, currency: 'USD' })).toMatchObject({ effect: 'flagged' });
    expect(await balanceOf(shop)).toBe(before);

    const declined = await approved(paymentId, 200);
    await executeRefund(db.em(), acquirer(async () => ({ kind: 'declined', reason: 'No' })).deps, declined);
    expect(await reverseRefund(db.em(), { reweighDisputes }, declined, { amount: 200, currency: 'USD' })).toMatchObject({ effect: 'flagged' });
    await settleNotifiedRefund(db.em(), refunding().deps, refundId, { kind: 'declined', reason: 'Refund Failed' });
    expect(await reverseRefund(db.em(), { reweighDisputes }, refundId, { amount: 300, currency: 'USD' })).toEqual({ effect: 'nothing-to-do' });
    expect(await balanceOf(shop)).toBe(before + 300);
  });
});
