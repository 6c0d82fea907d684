import { AdminRole } from '../../src/modules/admins/admin-role';
import type { Admin } from '../../src/modules/admins/admin.entity';
import { applyAcquirerEvent } from '../../src/modules/checkout/acquirer-events';
import { claimForCard } from '../../src/modules/checkout/card-claim';
import type { CardTestingGuard } from '../../src/modules/checkout/card-testing-guard';
import type { CheckoutDeps } from '../../src/modules/checkout/checkout.service';
import { Dispute } from '../../src/modules/disputes/dispute.entity';
import { chargebackStands, reweighDisputes } from '../../src/modules/disputes/dispute.service';
import { sellerBalance } from '../../src/modules/ledger/ledger.service';
import { Payment } from '../../src/modules/payments/payment.entity';
import { PaymentStatus } from '../../src/modules/payments/payment-status';
import { createPayment } from '../../src/modules/payments/payment.service';
import { Refund, RefundStatus } from '../../src/modules/refunds/refund.entity';
import { approveRefund, executeRefund, requestRefund } from '../../src/modules/refunds/refund.service';
import { createMetrics } from '../../src/platform/observability/metrics';
import type { AcquirerEvent, CardProcessor } from '../../src/platform/processor/card-processor';
import { createLogger } from '../../src/shared/logger';
import { useModuleDatabase } from '../support/module-database';

/**
 * What a verified notification of the acquirer does (src/modules/checkout/acquirer-events.ts), on the run's database:
 * its money is checked first against what it names (an authorization or a refund exactly, in either case of currency
 * code), and a mismatch moves nothing and is flagged; then it takes the same moves as a live answer. The refund and
 * dispute moves themselves are pinned in refund-execution.test.ts and disputes.test.ts.
 */
const db = useModuleDatabase();
const AMOUNT = 1000;
let requester: Admin;
let approver: Admin;
beforeAll(async () => {
  requester = await db.newAdmin(AdminRole.SUPPORT);
  approver = await db.newAdmin(AdminRole.FINANCE);
});

/** The checkout's dependencies with an acquirer whose void succeeds or throws; `voided` lists what it voided. */
function checkout(voidFails = false) {
  const voided: string[] = [];
  const processor = {
    voidAuthorization: async ({ paymentId }: { paymentId: string }) => {
      if (voidFails) throw new Error('acquirer unavailable');
      voided.push(paymentId);
    },
    refund: async ({ refundId }: { refundId: string }) => ({ kind: 'refunded', reference: `psp-${refundId}` }),
  } as unknown as CardProcessor;
  const deps: CheckoutDeps = { processor, metrics: createMetrics(), guard: {} as CardTestingGuard, baseUrl: 'https://pay.example', logger: createLogger('silent'), expiresAfterMs: 3_600_000 };
  return { deps, voided };
}
const apply = (event: AcquirerEvent, deps = checkout().deps) => applyAcquirerEvent(deps, db.em(), event);
const usd = (amount: number, currency = 'USD') => ({ amount, currency });

/** A payment claimed for a card and left `processing`, as when the acquirer's answer never came back. */
async function processingPayment(label: string): Promise<string> {
  const shop = await db.newShop(label);
  const { payment } = await createPayment(db.em(), shop.shop.id, { amount: AMOUNT, currency: 'usd', returnUrl: 'https://shop.example/back' });
  await claimForCard(db.em(), payment.id, new Date(Date.now() - 3600_000), { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2031 });
  return payment.id;
}
const statusOf = async (paymentId: string) => (await db.em().findOneOrFail(Payment, { id: paymentId })).status;

describe('an authorization', () => {
  test('approved for a payment left processing completes it; declined fails it; told again, nothing more moves', async () => {
    const approved = await processingPayment('event-approved');
    expect(await apply({ kind: 'authorization', paymentId: approved, outcome: { kind: 'approved', reference: 'psp-a', threeDs: null }, money: usd(AMOUNT) })).toEqual({ effect: 'settled' });
    expect(await statusOf(approved)).toBe(PaymentStatus.COMPLETED);
    const { deps, voided } = checkout();
    expect(await apply({ kind: 'authorization', paymentId: approved, outcome: { kind: 'approved', reference: 'psp-a', threeDs: null }, money: usd(AMOUNT) }, deps)).toEqual({ effect: 'nothing-to-do' });
    expect(voided).toEqual([]);

    const declined = await processingPayment('event-declined');
    expect(await apply({ kind: 'authorization', paymentId: declined, outcome: { kind: 'declined', code: 'card_declined' } as never, money: usd(AMOUNT, 'usd') })).toEqual({ effect: 'settled' });
    expect(await statusOf(declined)).toBe(PaymentStatus.FAILED);
    expect(await apply({ kind: 'authorization', paymentId: declined, outcome: { kind: 'declined', code: 'card_declined' } as never, money: usd(AMOUNT) })).toEqual({ effect: 'nothing-to-do' });
  });

  test('approved for a payment that failed here voids the authorization; a void that fails is flagged for finance', async () => {
    const paymentId = await processingPayment('event-void');
    await apply({ kind: 'authorization', paymentId, outcome: { kind: 'declined', code: 'card_declined' } as never, money: usd(AMOUNT) });
    const { deps, voided } = checkout();
    expect(await apply({ kind: 'authorization', paymentId, outcome: { kind: 'approved', reference: 'psp-late', threeDs: null }, money: usd(AMOUNT) }, deps)).toEqual({ effect: 'voided' });
    expect(voided).toEqual([paymentId]);
    expect(await statusOf(paymentId)).toBe(PaymentStatus.FAILED);
    const failing = await apply({ kind: 'authorization', paymentId, outcome: { kind: 'approved', reference: 'psp-late', threeDs: null }, money: usd(AMOUNT) }, checkout(true).deps);
    expect(failing).toMatchObject({ effect: 'flagged' });
    expect((failing as { problem: string }).problem).toContain('psp-late');
  });

  test('another amount or currency moves nothing and is flagged; an id that is not ours, or no payment, is nothing to do', async () => {
    const paymentId = await processingPayment('event-misfit');
    const before = await db.em().findOneOrFail(Payment, { id: paymentId });
    for (const money of [usd(AMOUNT + 1), usd(AMOUNT - 1), usd(AMOUNT, 'EUR')]) {
      const outcome = await apply({ kind: 'authorization', paymentId, outcome: { kind: 'approved', reference: 'psp-x', threeDs: null }, money });
      expect(outcome).toEqual({ effect: 'flagged', problem: `payment ${paymentId}: notified ${money.amount} ${money.currency}, expected ${AMOUNT} USD` });
    }
    expect(await db.em().findOneOrFail(Payment, { id: paymentId })).toMatchObject({ status: before.status, checkoutStage: before.checkoutStage });
    expect(await apply({ kind: 'authorization', paymentId: 'not-a-payment', outcome: { kind: 'approved', reference: 'x', threeDs: null }, money: usd(AMOUNT) })).toEqual({ effect: 'nothing-to-do' });
    expect(await apply({ kind: 'authorization', paymentId: 'pay_' + '0'.repeat(24), outcome: { kind: 'approved', reference: 'x', threeDs: null }, money: usd(AMOUNT) })).toEqual({ effect: 'nothing-to-do' });
  });
});

describe('a refund outcome and a reversal', () => {
  async function refundInProcessing(label: string): Promise<{ refundId: string; sellerId: string }> {
    const shop = await db.newShop(label);
    const paymentId = await db.completedPayment(shop, AMOUNT);
    const refund = await requestRefund(db.em(), chargebackStands, requester, paymentId, 'Parcel returned', null, 400);
    await approveRefund(db.em(), chargebackStands, approver, refund.id);
    const receiving = { refund: async () => ({ kind: 'pending', reference: 'psp-r' }) } as unknown as CardProcessor;
    await executeRefund(db.em(), { processor: receiving, logger: createLogger('silent'), processingTimeoutMs: 60_000, baseUrl: 'https://pay.example', chargebackStands, reweighDisputes }, refund.id);
    return { refundId: refund.id, sellerId: shop.seller.id };
  }
  const refundStatus = async (id: string) => (await db.em().findOneOrFail(Refund, { id })).status;

  test('the exact money settles the refund; other money is flagged and moves nothing; an unknown refund is nothing to do', async () => {
    const { refundId, sellerId } = await refundInProcessing('event-refund');
    const before = Number(await sellerBalance(db.em(), sellerId));
    for (const money of [usd(401), usd(400, 'EUR')]) {
      expect(await apply({ kind: 'refund', refundId, outcome: { kind: 'refunded', reference: 'psp-r' }, money })).toEqual({
        effect: 'flagged',
        problem: `refund ${refundId}: notified ${money.amount} ${money.currency}, expected 400 USD`,
      });
    }
    expect(await refundStatus(refundId)).toBe(RefundStatus.PROCESSING);
    expect(await apply({ kind: 'refund', refundId, outcome: { kind: 'refunded', reference: 'psp-r' }, money: usd(400, 'usd') })).toEqual({ effect: 'settled' });
    expect(await refundStatus(refundId)).toBe(RefundStatus.REFUNDED);
    expect(Number(await sellerBalance(db.em(), sellerId))).toBe(before - 400);
    expect(await apply({ kind: 'refund', refundId: 'ref_missing', outcome: { kind: 'refunded', reference: 'x' }, money: usd(400) })).toEqual({ effect: 'nothing-to-do' });

    expect(await apply({ kind: 'refund_reversed', refundId, money: usd(400) })).toEqual({ effect: 'moved' });
    expect(await refundStatus(refundId)).toBe(RefundStatus.REVERSED);
    expect(Number(await sellerBalance(db.em(), sellerId))).toBe(before);
  });
});

describe('a dispute step, a cancellation and anything else', () => {
  test('a dispute step moves the dispute of our payment; one naming no payment of ours is flagged', async () => {
    const shop = await db.newShop('event-dispute');
    const paymentId = await db.completedPayment(shop, AMOUNT);
    const step = { kind: 'dispute' as const, paymentId, reference: `DP-${paymentId}`, money: usd(AMOUNT), reason: 'Fraudulent', occurredAt: null };
    expect(await apply({ ...step, step: 'open' })).toEqual({ effect: 'opened' });
    expect(await apply({ ...step, step: 'chargeBack' })).toEqual({ effect: 'moved' });
    expect((await db.em().findOneOrFail(Dispute, { payment: paymentId })).status).toBe('charged_back');
    expect(await apply({ ...step, paymentId: 'ORDER-77', step: 'chargeBack' })).toEqual({ effect: 'flagged', problem: 'a dispute for "ORDER-77", which is not one of our payments' });
  });

  test('a cancellation confirmed is acknowledged; one refused is flagged for finance; other events are acknowledged', async () => {
    expect(await apply({ kind: 'cancellation', paymentId: 'pay_x', cancelled: true })).toEqual({ effect: 'acknowledged' });
    const refused = await apply({ kind: 'cancellation', paymentId: 'pay_x', cancelled: false });
    expect(refused).toMatchObject({ effect: 'flagged' });
    expect((refused as { problem: string }).problem).toContain('pay_x');
    expect(await apply({ kind: 'other', name: 'REPORT_AVAILABLE' })).toEqual({ effect: 'acknowledged' });
  });
});
