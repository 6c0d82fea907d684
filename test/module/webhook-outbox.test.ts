import { LockMode } from '@mikro-orm/core';
import { AdminRole } from '../../src/modules/admins/admin-role';
import type { NewShop } from '../../src/modules/identity/shop-provisioning';
import { Shop } from '../../src/modules/identity/shop.entity';
import { Payment } from '../../src/modules/payments/payment.entity';
import { paymentPayload, samplePaymentPayload } from '../../src/modules/payments/payment-payload';
import { createPayment } from '../../src/modules/payments/payment.service';
import { emit, type PaymentEventType } from '../../src/modules/webhooks/outbox';
import { DELIVERIES_COMMITTED } from '../../src/modules/webhooks/outbox-store';
import { WebhookDelivery } from '../../src/modules/webhooks/webhook-delivery.entity';
import { WebhookEvent } from '../../src/modules/webhooks/webhook-event.entity';
import { setWebhookEvents } from '../../src/modules/webhooks/webhook-settings.service';
import { rejectWithdrawal, requestWithdrawal } from '../../src/modules/withdrawals/withdrawal.service';
import { countWakes } from '../support/commit-wakes';
import { useModuleDatabase } from '../support/module-database';

/**
 * The webhook outbox (src/modules/webhooks/outbox.ts), on the run's database: every event of a payment takes the next
 * number of that payment's sequence; it is written whatever the shop chose, and a delivery with it only when the shop
 * has a webhook URL and receives its type (payment.completed always, others when chosen: identity/webhook-event-choice.ts);
 * its body is the documented JSON (docs/reference.md, "Webhooks"), serialized once.
 */
const db = useModuleDatabase();
const BASE_URL = 'https://pay.example';
const HOOK = 'https://hooks.example/in';

/** A shop with a webhook URL; its deliveries are removed after each test. */
const hooked: string[] = [];
async function hookedShop(label: string, options: { payoutAccount?: boolean } = {}): Promise<NewShop> {
  const shop = await db.newShop(label, { webhookUrl: HOOK, ...options });
  hooked.push(shop.shop.id);
  return shop;
}
// Later suites of this worker share its database, and their relays would try these deliveries: leave none behind.
afterEach(() => db.em().nativeDelete(WebhookDelivery, { shop: { $in: hooked } }));

/** Writes a payment event as the moves do: in a transaction holding the payment's row lock, with its shop loaded. */
function recordEvent(paymentId: string, type: PaymentEventType, refund?: object): Promise<WebhookEvent> {
  return db.em().transactional(async (tx) => {
    const payment = await tx.findOneOrFail(Payment, { id: paymentId }, { populate: ['shop'], lockMode: LockMode.PESSIMISTIC_WRITE });
    return emit(tx, { payment, type, payload: paymentPayload(payment, BASE_URL), refund });
  });
}

const eventsOf = async (paymentId: string) => (await db.em().find(WebhookEvent, { paymentId }, { orderBy: { sequence: 'asc' } })).map((e) => `${e.sequence} ${e.type}`);
const deliveredTypes = async (shop: NewShop) =>
  (await db.em().find(WebhookDelivery, { shop: shop.shop.id }, { populate: ['event'], orderBy: { createdAt: 'asc', id: 'asc' } })).map((d) => d.event.type);
const pendingPayment = async (shop: NewShop, request = {}) =>
  (await createPayment(db.em(), shop.shop.id, { amount: 1234, currency: 'usd', returnUrl: 'https://shop.example/back', ...request })).payment.id;
const choose = async (shop: NewShop, events: string[]) => {
  const em = db.em();
  await setWebhookEvents(em, null, await em.findOneOrFail(Shop, { id: shop.shop.id }), events);
};

describe('sequence', () => {
  test("a payment's events are numbered 1, 2, 3 in the order written, whichever writer writes them", async () => {
    const shop = await db.newShop('outbox-sequence');
    // The completion statement takes number 1 itself; the outbox continues from it.
    const paymentId = await db.completedPayment(shop, 1234);
    expect((await recordEvent(paymentId, 'payment.refunded')).sequence).toBe(2);
    expect((await recordEvent(paymentId, 'refund.failed')).sequence).toBe(3);
    expect(await eventsOf(paymentId)).toEqual(['1 payment.completed', '2 payment.refunded', '3 refund.failed']);
  });

  test("each payment counts its own events: another payment of the shop starts at 1", async () => {
    const shop = await db.newShop('outbox-per-payment');
    const first = await pendingPayment(shop);
    const second = await pendingPayment(shop);
    await recordEvent(first, 'payment.failed');
    await recordEvent(first, 'payment.failed');
    expect((await recordEvent(second, 'payment.failed')).sequence).toBe(1);
    expect(await eventsOf(first)).toEqual(['1 payment.failed', '2 payment.failed']);
  });

  test('the database refuses a second event with the same number for one payment', async () => {
    const shop = await db.newShop('outbox-unique');
    const paymentId = await pendingPayment(shop);
    const event = await recordEvent(paymentId, 'payment.failed');
    const em = db.em();
    em.create(WebhookEvent, { shop: shop.shop.id, paymentId, type: 'payment.failed', sequence: event.sequence, body: '{}' });
    await expect(em.flush()).rejects.toThrow(/webhook_events_payment_sequence_unique/);
  });
});

describe('which events get a delivery', () => {
  test('a shop without a webhook URL gets events written and no delivery, even of payment.completed', async () => {
    const shop = await db.newShop('outbox-no-url');
    await choose(shop, ['payment.failed']);
    const paymentId = await db.completedPayment(shop, 1000);
    await recordEvent(await pendingPayment(shop), 'payment.failed');
    expect(await eventsOf(paymentId)).toEqual(['1 payment.completed']);
    expect(await db.em().count(WebhookEvent, { shop: shop.shop.id })).toBe(2);
    expect(await deliveredTypes(shop)).toEqual([]);
  });

  test('a shop with a URL and no choice receives payment.completed only', async () => {
    const shop = await hookedShop('outbox-default');
    const paymentId = await db.completedPayment(shop, 1000);
    for (const type of ['payment.refunded', 'refund.failed'] as const) await recordEvent(paymentId, type);
    await recordEvent(await pendingPayment(shop), 'payment.failed');
    expect(await db.em().count(WebhookEvent, { shop: shop.shop.id })).toBe(4);
    expect(await deliveredTypes(shop)).toEqual(['payment.completed']);
  });

  test('a shop receives the types it chose besides payment.completed, and nothing it did not choose', async () => {
    const shop = await hookedShop('outbox-chosen');
    await choose(shop, ['payment.refunded', 'payment.failed']);
    const paymentId = await db.completedPayment(shop, 1000);
    await recordEvent(paymentId, 'payment.refunded');
    await recordEvent(paymentId, 'refund.failed');
    expect(await deliveredTypes(shop)).toEqual(['payment.completed', 'payment.refunded']);
  });

  test('a delivery is due at once, for its event, pending with no attempt made', async () => {
    const shop = await hookedShop('outbox-delivery');
    await choose(shop, ['payment.failed']);
    const paymentId = await pendingPayment(shop);
    const event = await recordEvent(paymentId, 'payment.failed');
    const [delivery] = await db.em().find(WebhookDelivery, { shop: shop.shop.id });
    expect(delivery).toMatchObject({ status: 'pending', attemptCount: 0, scheduleStart: 0, deliveredAt: null, failedAt: null, lastAttemptAt: null });
    expect([delivery.event.id, delivery.paymentId, delivery.nextAttemptAt?.toISOString()]).toEqual([event.id, paymentId, event.createdAt.toISOString()]);
  });

  test('once the URL is cleared, events keep being written but no delivery is created', async () => {
    const shop = await hookedShop('outbox-cleared');
    await choose(shop, ['payment.failed']);
    await db.em().nativeUpdate(Shop, { id: shop.shop.id }, { webhookUrl: null });
    const paymentId = await pendingPayment(shop);
    await recordEvent(paymentId, 'payment.failed');
    expect(await eventsOf(paymentId)).toEqual(['1 payment.failed']);
    expect(await deliveredTypes(shop)).toEqual([]);
  });
});

describe('the body', () => {
  test('is the documented JSON: id, event, sequence, the payment as retrieved, shop, timestamp, in that order', async () => {
    const shop = await hookedShop('outbox-body');
    await choose(shop, ['payment.failed']);
    const paymentId = await pendingPayment(shop, { customerEmail: 'ann@example.com', customerName: 'Ann', metadata: { order_id: '42', gift: true } });
    const event = await recordEvent(paymentId, 'payment.failed');
    const stored = await db.em().findOneOrFail(WebhookEvent, { id: event.id });
    const payment = await db.em().findOneOrFail(Payment, { id: paymentId });
    const body = JSON.parse(stored.body);
    expect(Object.keys(body)).toEqual(['id', 'event', 'sequence', 'payment', 'shop', 'timestamp']);
    expect(body).toEqual({
      id: event.id,
      event: 'payment.failed',
      sequence: 1,
      payment: {
        id: paymentId, amount: 1234, currency: 'usd', status: 'pending', checkout_url: `${BASE_URL}/checkout/${paymentId}`,
        customer_email: 'ann@example.com', customer_name: 'Ann', metadata: { order_id: '42', gift: true },
        created_at: payment.createdAt.toISOString(), completed_at: null,
      },
      shop: { id: shop.shop.id, shop_name: 'outbox-body shop' },
      timestamp: stored.createdAt.toISOString(),
    });
    expect(event.id).toMatch(/^evt_[0-9A-Za-z]{24}$/);
    // Metadata keeps the order it was given in.
    expect(Object.keys(body.payment.metadata)).toEqual(['order_id', 'gift']);
  });

  test('a completed payment reads completed with its completion time; a refund event adds `refund` after `payment`', async () => {
    const shop = await db.newShop('outbox-refund-body');
    const paymentId = await db.completedPayment(shop, 1234);
    const refund = { id: 'rf_example', amount: 1234, status: 'refunded' };
    const event = await recordEvent(paymentId, 'payment.refunded', refund);
    const body = JSON.parse((await db.em().findOneOrFail(WebhookEvent, { id: event.id })).body);
    expect(Object.keys(body)).toEqual(['id', 'event', 'sequence', 'payment', 'refund', 'shop', 'timestamp']);
    const payment = await db.em().findOneOrFail(Payment, { id: paymentId });
    expect(body).toMatchObject({ event: 'payment.refunded', sequence: 2, refund, payment: { status: 'completed', amount: 1234, completed_at: payment.completedAt!.toISOString() } });
  });

  test("the completion statement's payment.completed body has the same shape", async () => {
    const shop = await db.newShop('outbox-completed-body');
    const paymentId = await db.completedPayment(shop, 1234);
    const [event] = await db.em().find(WebhookEvent, { paymentId });
    const body = JSON.parse(event.body);
    const payment = await db.em().findOneOrFail(Payment, { id: paymentId });
    expect(Object.keys(body)).toEqual(['id', 'event', 'sequence', 'payment', 'shop', 'timestamp']);
    expect(body).toMatchObject({ id: event.id, event: 'payment.completed', sequence: 1, shop: { id: shop.shop.id, shop_name: 'outbox-completed-body shop' }, timestamp: event.createdAt.toISOString() });
    expect(body.payment).toMatchObject({ id: paymentId, amount: 1234, status: 'completed', completed_at: payment.completedAt!.toISOString() });
  });
});

describe("the relay's wake-up", () => {
  const wakes = countWakes(() => db.em(), DELIVERIES_COMMITTED);

  const failedPaymentOf = async (label: string) => {
    const shop = await hookedShop(label);
    await choose(shop, ['payment.failed']);
    return pendingPayment(shop);
  };
  const emitFailed = async (tx: Parameters<typeof emit>[0], paymentId: string) => {
    const payment = await tx.findOneOrFail(Payment, { id: paymentId }, { populate: ['shop'], lockMode: LockMode.PESSIMISTIC_WRITE });
    return emit(tx, { payment, type: 'payment.failed', payload: paymentPayload(payment, BASE_URL) });
  };

  test('comes once the transaction emit wrote a delivery into commits, also when emit ran in a nested one', async () => {
    const paymentId = await failedPaymentOf('wake-nested');
    await db.em().transactional(async (tx) => {
      // A move's own transaction inside the caller's is a savepoint: nothing is committed when it ends.
      await tx.transactional((inner) => emitFailed(inner, paymentId));
      expect(wakes.count).toBe(0);
    });
    expect(wakes.count).toBe(1);
  });

  test('never for a rollback, nor for an event without a delivery', async () => {
    const paymentId = await failedPaymentOf('wake-rollback');
    await expect(db.em().transactional(async (tx) => {
      await emitFailed(tx, paymentId);
      throw new Error('changed my mind');
    })).rejects.toThrow('changed my mind');
    await db.em().transactional((tx) => emitFailed(tx, paymentId));
    expect(wakes.count).toBe(1);
    const unhooked = await pendingPayment(await db.newShop('wake-no-url'));
    await db.em().transactional((tx) => emitFailed(tx, unhooked));
    expect(wakes.count).toBe(1);
  });

  test("comes after the flush that writes a test event emitted outside a transaction, and after a completion's statement", async () => {
    const shop = await hookedShop('wake-test-event');
    const em = db.em();
    await emit(em, { testFor: await em.findOneOrFail(Shop, { id: shop.shop.id }), samplePayment: (at) => samplePaymentPayload(BASE_URL, at) });
    expect(wakes.count).toBe(0);
    await em.flush();
    expect(wakes.count).toBe(1);
    await db.completedPayment(shop, 1000);
    expect(wakes.count).toBe(2);
    await db.completedPayment(await db.newShop('wake-completion-no-url'), 1000);
    expect(wakes.count).toBe(2);
  });

  test('a listener that stopped hears nothing', async () => {
    wakes.stop();
    await db.completedPayment(await hookedShop('wake-stopped'), 1000);
    expect(wakes.count).toBe(0);
  });
});

test('a withdrawal event is numbered per withdrawal, has `withdrawal` where payment events have `payment`, and is delivered when chosen', async () => {
  const requester = await db.newAdmin(AdminRole.FINANCE);
  const approver = await db.newAdmin(AdminRole.FINANCE);
  const shop = await hookedShop('outbox-withdrawal', { payoutAccount: true });
  await choose(shop, ['withdrawal.rejected']);
  await db.completedPayment(shop, 10_000);
  const withdrawal = await requestWithdrawal(db.em(), shop.shop.id, 3000, requester);
  await rejectWithdrawal(db.em(), approver, withdrawal.id, 'Wrong account');
  const [event] = await db.em().find(WebhookEvent, { withdrawalId: withdrawal.id });
  expect([event.type, event.sequence, event.paymentId]).toEqual(['withdrawal.rejected', 1, null]);
  const body = JSON.parse(event.body);
  expect(Object.keys(body)).toEqual(['id', 'event', 'sequence', 'withdrawal', 'shop', 'timestamp']);
  expect(body).toMatchObject({ id: event.id, event: 'withdrawal.rejected', sequence: 1, withdrawal: { id: withdrawal.id, amount: 3000, status: 'rejected', rejection_reason: 'Wrong account', payout_reference: null, paid_at: null }, shop: { id: shop.shop.id } });
  expect(await deliveredTypes(shop)).toEqual(['payment.completed', 'withdrawal.rejected']);
});
