import { AdminRole } from '../../src/modules/admins/admin-role';
import type { Admin } from '../../src/modules/admins/admin.entity';
import { applyAcquirerEvent } from '../../src/modules/checkout/acquirer-events';
import { claimForCard } from '../../src/modules/checkout/card-claim';
import { createCardTestingGuard } from '../../src/modules/checkout/card-testing-guard';
import { answerThreeDSecure, submitCard, type CheckoutDeps } from '../../src/modules/checkout/checkout.service';
import { startAcquirerInbox as startSimulatedNotifications, type InboxDrain as SimulatedNotifications } from '../../src/modules/checkout/acquirer-inbox';
import { Dispute, DisputeStatus } from '../../src/modules/disputes/dispute.entity';
import { chargebackStands, reweighDisputes } from '../../src/modules/disputes/dispute.service';
import { LedgerEntry } from '../../src/modules/ledger/ledger-entry.entity';
import { checkLedger } from '../../src/modules/ledger/ledger-invariants';
import { sellerBalance } from '../../src/modules/ledger/ledger.service';
import { MailOutboxEntry } from '../../src/modules/notifications/mail-outbox.entity';
import { Payment } from '../../src/modules/payments/payment.entity';
import { PaymentStatus } from '../../src/modules/payments/payment-status';
import { createPayment } from '../../src/modules/payments/payment.service';
import type { NewShop } from '../../src/modules/identity/shop-provisioning';
import { Refund, RefundStatus } from '../../src/modules/refunds/refund.entity';
import { approveRefund, executeRefund, requestRefund } from '../../src/modules/refunds/refund.service';
import { WebhookEvent } from '../../src/modules/webhooks/webhook-event.entity';
import { pooledRunner } from '../../src/platform/db/pooled-query';
import { createMetrics } from '../../src/platform/observability/metrics';
import type { AcquirerEvent } from '../../src/platform/processor/card-processor';
import { SIMULATED_DISPUTE_REASON, SIMULATED_REFUND_FAILURE, SimulatedAcquirer, simulatedDisputeReference } from '../../src/platform/processor/simulated-acquirer';
import { sqlSimulatedEvents } from '../../src/platform/processor/simulated-event-store';
import { sqlRecords } from '../../src/platform/processor/simulated-operation-store';
import { loadConfig } from '../../src/shared/config';
import { createLogger } from '../../src/shared/logger';
import { useModuleDatabase } from '../support/module-database';

/**
 * The simulator's test cards for what happens after a charge, on the run's database: the dispute card's chargeback and
 * the refund-failure card's REFUND_FAILED are told by the acquirer inbox's drain (src/modules/checkout/acquirer-inbox.ts)
 * through `applyAcquirerEvent`, the path Adyen's notifications take, so they move the same lifecycles and book the same
 * journals; the ledger invariants hold after each. A payment of 2000 cents credits the seller 1700 (the fee is 300).
 */
const db = useModuleDatabase({ poolSize: 4 });
const AMOUNT = 2000;
const NET = 1700;
const FEE = 300;
// Long enough that nothing falls due by itself while a test runs, however loaded the machine: a test makes the delay pass (elapse).
const DELAY_MS = 60_000;
const DISPUTE_CARD = '4000000000000259';
const REFUND_FAILURE_CARD = '4000000000005126';

let acquirer: SimulatedAcquirer;
let checkout: CheckoutDeps;
let notifications: SimulatedNotifications;
let requester: Admin;
let approver: Admin;
beforeAll(async () => {
  const run = pooledRunner(db.em());
  acquirer = new SimulatedAcquirer(0, 0, sqlRecords(run), { store: sqlSimulatedEvents(run), delayMs: DELAY_MS });
  const config = loadConfig({});
  checkout = { processor: acquirer, metrics: createMetrics(), guard: createCardTestingGuard(config.checkoutLimits, undefined, 'simulated-events:'), baseUrl: 'https://pay.example', logger: createLogger('silent'), expiresAfterMs: 3_600_000 };
  // No sweep during the tests: each test drains when it means to.
  notifications = startSimulatedNotifications({ em: () => db.em(), store: acquirer.events.store, checkout, logger: createLogger('silent'), intervalMs: 3_600_000 });
  requester = await db.newAdmin(AdminRole.SUPPORT);
  approver = await db.newAdmin(AdminRole.FINANCE);
});
afterAll(() => notifications.stop());

/** The acquirer's delay passes for what it will tell of this payment. */
const elapse = (paymentId: string) =>
  db.em().getConnection().execute(`update "simulated_acquirer_events" set "due_at" = now() where "payment_id" = ? and "told_at" is null`, [paymentId]);
const card = (number: string) => ({ number, expMonth: 12, expYear: new Date().getFullYear() + 2, securityCode: '123' });
const caller = () => ({ em: db.em(), clientAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`, requestId: 'module-test' });

/** A payment of AMOUNT paid on the checkout's own path with `number`. */
async function paidWith(label: string, number: string): Promise<{ shop: NewShop; paymentId: string }> {
  const shop = await db.newShop(label);
  const { payment } = await createPayment(db.em(), shop.shop.id, { amount: AMOUNT, currency: 'usd', returnUrl: 'https://shop.example/back' });
  const paid = await submitCard(checkout, caller(), payment.id, card(number));
  expect(paid.status).toBe(PaymentStatus.COMPLETED);
  return { shop, paymentId: payment.id };
}

const balanceOf = async (shop: NewShop) => Number(await sellerBalance(db.em(), shop.seller.id));
/** A payment's journals besides its completion, as "account kind amount": by journal in the order booked, each journal's lines sorted. */
const journalsOf = async (paymentId: string) => {
  const entries = await db.em().find(LedgerEntry, { paymentId, kind: { $nin: ['payment', 'fee'] } }, { orderBy: { id: 'asc' } });
  const kinds = [...new Set(entries.map((e) => e.kind))];
  return kinds.flatMap((kind) => entries.filter((e) => e.kind === kind).map((e) => `${e.account} ${e.kind} ${e.amount}`).sort().reverse());
};
const mailsOf = async (paymentId: string) => (await db.em().find(MailOutboxEntry, { paymentId }, { orderBy: { createdAt: 'asc', id: 'asc' } })).map((m) => m.kind);
async function violationsAbout(...ids: string[]) {
  const disputes = await db.em().find(Dispute, { payment: { $in: ids } });
  const ours = new Set([...ids, ...disputes.map((d) => d.id)]);
  return (await checkLedger(db.em())).violations.filter((v) => ours.has(v.subject) || [...ours].some((id) => v.subject.includes(id)));
}

describe('the dispute card', () => {
  test('completes, then a few moments later is disputed and charged back through the acquirer-event path; the reversal credits it back', async () => {
    const { shop, paymentId } = await paidWith('sim-dispute', DISPUTE_CARD);
    expect(await balanceOf(shop)).toBe(NET);
    // Not due yet: nothing is told before the delay.
    await notifications.drain();
    expect(await db.em().findOne(Dispute, { payment: paymentId })).toBeNull();

    await elapse(paymentId);
    await notifications.drain();
    const dispute = await db.em().findOneOrFail(Dispute, { payment: paymentId });
    expect(dispute).toMatchObject({ status: DisputeStatus.CHARGED_BACK, amount: AMOUNT, sellerShare: AMOUNT, reason: SIMULATED_DISPUTE_REASON, acquirerReference: simulatedDisputeReference(paymentId) });
    expect(await journalsOf(paymentId)).toEqual([`seller_balance chargeback -${AMOUNT}`, `customer_funds chargeback ${AMOUNT}`]);
    expect(await balanceOf(shop)).toBe(-FEE);
    expect(await chargebackStands(db.em(), paymentId)).toBe(true);
    expect(await mailsOf(paymentId)).toContain('dispute-opened');
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);

    // Told once: another pass, or the same chargeback told again as Adyen would retry it, moves nothing more.
    expect(await notifications.drain()).toBe(0);
    const again: AcquirerEvent = { kind: 'dispute', step: 'chargeBack', paymentId, reference: dispute.acquirerReference, money: { amount: AMOUNT, currency: 'USD' }, reason: null, occurredAt: null };
    expect(await applyAcquirerEvent(checkout, db.em(), again)).toEqual({ effect: 'nothing-to-do' });
    expect(await balanceOf(shop)).toBe(-FEE);

    await acquirer.reverseChargeback({ paymentId, reference: dispute.acquirerReference, amount: dispute.amount, currency: dispute.currency });
    await notifications.drain();
    expect(await db.em().findOneOrFail(Dispute, { id: dispute.id })).toMatchObject({ status: DisputeStatus.REVERSED });
    expect(await journalsOf(paymentId)).toEqual([
      `seller_balance chargeback -${AMOUNT}`, `customer_funds chargeback ${AMOUNT}`,
      `seller_balance chargeback_reversed ${AMOUNT}`, `customer_funds chargeback_reversed -${AMOUNT}`,
    ]);
    expect(await balanceOf(shop)).toBe(NET);
    expect(await chargebackStands(db.em(), paymentId)).toBe(false);
    expect(await violationsAbout(shop.seller.id, paymentId)).toEqual([]);
  });

  test('a dispute told before the payment completed here waits for it, then lands', async () => {
    const shop = await db.newShop('sim-dispute-early');
    const { payment } = await createPayment(db.em(), shop.shop.id, { amount: AMOUNT, currency: 'usd', returnUrl: 'https://shop.example/back' });
    // The card is at the acquirer (claimed) and the answer has not come back yet when the dispute falls due.
    const slow = new SimulatedAcquirer(0, 0, sqlRecords(pooledRunner(db.em())), { store: acquirer.events.store, delayMs: 0 });
    await claimForCard(db.em(), payment.id, new Date(Date.now() - 3_600_000), { brand: 'visa', last4: '0259', expMonth: 12, expYear: 2031 });
    const answer = await slow.authorize({ paymentId: payment.id, amount: AMOUNT, currency: 'usd', card: { number: DISPUTE_CARD } });
    await notifications.drain();
    expect(await db.em().findOne(Dispute, { payment: payment.id })).toBeNull();

    // Its authorization arrives (as reconciliation or a notification would settle it), and the waiting dispute follows.
    const settled = await applyAcquirerEvent(checkout, db.em(), { kind: 'authorization', paymentId: payment.id, outcome: answer as never, money: { amount: AMOUNT, currency: 'USD' } });
    expect(settled).toEqual({ effect: 'settled' });
    await elapse(payment.id);
    await notifications.drain();
    expect(await db.em().findOneOrFail(Dispute, { payment: payment.id })).toMatchObject({ status: DisputeStatus.CHARGED_BACK });
    expect(await balanceOf(shop)).toBe(-FEE);
    expect(await violationsAbout(shop.seller.id, payment.id)).toEqual([]);
  });
});

describe('the refund-failure card', () => {
  test('its refund is carried out, then fails as after REFUND_FAILED: the seller is credited back, told, and the payment is completed again', async () => {
    const { shop, paymentId } = await paidWith('sim-refund-fails', REFUND_FAILURE_CARD);
    const refund = await requestRefund(db.em(), chargebackStands, requester, paymentId, 'Parcel returned', null, AMOUNT);
    await approveRefund(db.em(), chargebackStands, approver, refund.id);
    const deps = { processor: acquirer, logger: createLogger('silent'), processingTimeoutMs: 60_000, baseUrl: 'https://pay.example', chargebackStands, reweighDisputes };
    expect(await executeRefund(db.em(), deps, refund.id)).toBe('refunded');
    expect(await db.em().findOneOrFail(Payment, { id: paymentId })).toMatchObject({ status: PaymentStatus.REFUNDED });
    expect(await balanceOf(shop)).toBe(NET - AMOUNT);

    await elapse(paymentId);
    await notifications.drain();
    expect(await db.em().findOneOrFail(Refund, { id: refund.id })).toMatchObject({ status: RefundStatus.FAILED, failureReason: SIMULATED_REFUND_FAILURE });
    expect(await db.em().findOneOrFail(Payment, { id: paymentId })).toMatchObject({ status: PaymentStatus.COMPLETED });
    expect(await journalsOf(paymentId)).toEqual([`seller_balance refund -${AMOUNT}`, `customer_funds refund ${AMOUNT}`, `seller_balance refund_failed ${AMOUNT}`, `customer_funds refund_failed -${AMOUNT}`]);
    expect(await balanceOf(shop)).toBe(NET);
    expect(await mailsOf(paymentId)).toContain('refund-failed');
    expect((await db.em().find(WebhookEvent, { paymentId }, { orderBy: { sequence: 'asc' } })).map((e) => e.type)).toEqual(['payment.completed', 'payment.refunded', 'refund.failed']);
    expect(await violationsAbout(shop.seller.id, paymentId, refund.id)).toEqual([]);
    expect(await notifications.drain()).toBe(0);
  });

  test('a plain card\'s refund stays refunded: nothing is told', async () => {
    const { paymentId } = await paidWith('sim-refund-stays', '4242424242424242');
    const refund = await requestRefund(db.em(), chargebackStands, requester, paymentId, 'Parcel returned', null, 500);
    await approveRefund(db.em(), chargebackStands, approver, refund.id);
    expect(await executeRefund(db.em(), { processor: acquirer, logger: createLogger('silent'), processingTimeoutMs: 60_000, baseUrl: 'https://pay.example', chargebackStands, reweighDisputes }, refund.id)).toBe('refunded');
    await elapse(paymentId);
    await notifications.drain();
    expect(await db.em().findOneOrFail(Refund, { id: refund.id })).toMatchObject({ status: RefundStatus.REFUNDED });
  });
});

describe('the 3-D Secure card whose challenge fails', () => {
  test('4000 0000 0000 3220 with the challenge failed: failed authentication_failed, nothing booked', async () => {
    const shop = await db.newShop('sim-3ds-fails');
    const { payment } = await createPayment(db.em(), shop.shop.id, { amount: AMOUNT, currency: 'usd', returnUrl: 'https://shop.example/back' });
    const challenged = await submitCard(checkout, caller(), payment.id, card('4000000000003220'));
    expect(challenged).toMatchObject({ status: PaymentStatus.PENDING });
    const failed = await answerThreeDSecure(checkout, caller(), payment.id, false);
    expect(failed).toMatchObject({ status: PaymentStatus.FAILED, failureCode: 'authentication_failed' });
    expect(await db.em().count(LedgerEntry, { paymentId: payment.id })).toBe(0);
    expect(await balanceOf(shop)).toBe(0);
  });
});
