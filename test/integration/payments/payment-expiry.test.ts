import { LedgerEntry } from '../../../src/modules/ledger/ledger-entry.entity';
import { Payment } from '../../../src/modules/payments/payment.entity';
import { expirePayment } from '../../../src/modules/payments/payment-expiry';
import type { SimulatedAcquirer } from '../../../src/platform/processor/simulated-acquirer';
import { WebhookDelivery } from '../../../src/modules/webhooks/webhook-delivery.entity';
import { WebhookEvent } from '../../../src/modules/webhooks/webhook-event.entity';
import { adminClient, eventually } from '../../support/admin-client';
import { checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { startReceiver, type Receiver } from '../../support/webhook-receiver';
import { FAST_WEBHOOKS, graphqlAs, sleep } from '../../support/webhook-support';
import { useTestService, type TestService } from '../../support/test-service';

jest.setTimeout(60_000);

/**
 * Expiry (docs/checkout.md, "Expiry"): the default PAYMENT_EXPIRES_AFTER_MS (24 h); a payment is made old by
 * moving its `created_at` back in the database, so no test waits for a clock.
 */
const DAY_MS = 86_400_000;
afterAll(async () => {
  // Every instance's relay serves the whole shared test database: leave no delivery pending towards this
  // receiver's port, which another file may reuse once it is closed.
  await eventually(async () => (await service.em().count(WebhookDelivery, { shop: shop.shop.id, status: 'pending' })) === 0, 20_000, 'deliveries to settle');
});
const service = useTestService({ ...FAST_WEBHOOKS, RECONCILE_INTERVAL_MS: '100', RATE_LIMIT_PER_MINUTE: '1000' });
let receiver: Receiver;
let shop: Awaited<ReturnType<TestService['createShop']>>;
const customer = () => checkoutClient(service.url);
const seller = () => sellerClient(service.url, shop.apiKey);
const acquirer = () => service.services.checkout.processor as SimulatedAcquirer;
const callsAbout = (subject: string) => acquirer().calls.filter((call) => call.subject === subject).map((call) => call.operation);
const sql = (query: string, params: unknown[] = []) => service.em().getConnection().execute(query, params);
const reload = (id: string) => service.em().findOneOrFail(Payment, { id }, { refresh: true });

beforeAll(async () => {
  receiver = await startReceiver();
  shop = await service.createShop({ shopName: 'Corner Bakery', webhookUrl: receiver.url });
  await graphqlAs(service, shop.apiKey)(`mutation { setWebhookEvents(events: ["payment.failed"]) { id } }`);
});
afterAll(async () => {
  await receiver.close();
});

async function created(): Promise<string> {
  const answer = await seller().create(VALID_PAYMENT);
  expect(answer.status).toBe(200);
  return answer.body.data.id;
}

/** Makes the payment `ms` old (by the database clock). */
const age = (id: string, ms: number) => sql(`update payments set created_at = now() - make_interval(secs => ?) where id = ?`, [ms / 1000, id]);

const failedEvents = (id: string) => receiver.received.filter((r) => r.body.event === 'payment.failed' && r.body.payment.id === id);

test('past its expiry a payment takes no card, reads failed (reason expired) everywhere, books nothing and sends payment.failed once', async () => {
  const id = await created();
  await age(id, DAY_MS + 1000);

  const view = (await customer().view(id)).body.data.checkoutPayment;
  expect(view).toMatchObject({
    status: 'FAILED',
    stage: 'FINISHED',
    failureCode: 'expired',
    failureMessage: 'This payment link has expired and can no longer be paid. Your card has not been charged.',
  });
  // The way back to the shop: return_url with the outcome (docs/checkout.md, "Redirects").
  expect(view.redirectUrl).toBe(`${VALID_PAYMENT.return_url}&payment_id=${id}&status=failed`);

  const paid = (await customer().pay(id, '4242424242424242')).body.data.submitCard;
  expect(paid).toMatchObject({ status: 'FAILED', failureCode: 'expired' });
  expect(callsAbout(id)).toEqual([]);
  expect((await seller().retrieve(id)).body.data).toMatchObject({ status: 'failed', completed_at: null });
  expect(await service.em().count(LedgerEntry, { paymentId: id })).toBe(0);

  await eventually(async () => failedEvents(id).length === 1, 10_000, 'payment.failed');
  await sleep(300);
  expect(failedEvents(id)).toHaveLength(1);
  expect((await service.em().find(WebhookEvent, { paymentId: id })).map((e) => e.type)).toEqual(['payment.failed']);
});

test('the REST retrieve expires a due payment nobody opened; one not yet due stays pending', async () => {
  const due = await created();
  const fresh = await created();
  await age(due, DAY_MS + 1000);
  await age(fresh, DAY_MS - 60_000);
  expect((await seller().retrieve(due)).body.data.status).toBe('failed');
  expect((await reload(due)).failureCode).toBe('expired');
  expect((await seller().retrieve(fresh)).body.data.status).toBe('pending');
  // Not yet due: the card is taken.
  expect((await customer().pay(fresh, '4242424242424242')).body.data.submitCard.status).toBe('COMPLETED');
});

test('the sweep expires payments nobody reads, so lists show them failed; admins see the reason', async () => {
  const id = await created();
  await age(id, DAY_MS + 1);
  await eventually(async () => (await reload(id)).status === 'failed', 10_000, 'the sweep to expire it');
  const list = await seller().list('?limit=100');
  expect(list.body.data.find((p: { id: string }) => p.id === id)).toMatchObject({ status: 'failed' });
  const admin = await adminClient(service);
  expect((await admin.ok(`query ($id: ID!) { payment(id: $id) { status failureCode } }`, { id })).payment).toEqual({ status: 'FAILED', failureCode: 'expired' });
});

test('a 3-D Secure answer after the expiry is not taken: the challenge never completes, nothing is charged', async () => {
  const id = await created();
  const challenged = (await customer().pay(id, '4000000000003220')).body.data.submitCard;
  expect(challenged.stage).toBe('AUTHENTICATION_REQUIRED');
  await age(id, DAY_MS + 1);
  const answered = (await customer().authenticate(id, true)).body.data.answerThreeDSecure;
  expect(answered).toMatchObject({ status: 'FAILED', failureCode: 'expired' });
  expect(callsAbout(id)).toEqual(['authorize']);
  const payment = await reload(id);
  expect([payment.status, payment.completedAt]).toEqual(['failed', null]);
  expect(await service.em().count(LedgerEntry, { paymentId: id })).toBe(0);
});

test('a card already at the acquirer is never expired: its answer settles it', async () => {
  const id = await created();
  // processing_since ahead of now: no reconciliation sweep of the shared test database looks it up meanwhile.
  await sql(`update payments set checkout_stage = 'processing', processing_since = now() + interval '1 day' where id = ?`, [id]);
  await age(id, DAY_MS + 1);
  expect((await seller().retrieve(id)).body.data.status).toBe('pending');
  expect(await expirePayment(service.em(), service.services.checkout, id)).toBe(false);
  expect((await reload(id)).checkoutStage).toBe('processing');
});

test('cancel keeps its documented behaviour: a pending payment stays pending; an expired one goes back with status=failed', async () => {
  const pending = await created();
  const cancelled = (await customer().cancel(pending)).body.data.cancelCheckout.redirectUrl as string;
  expect(new URL(cancelled).searchParams.get('status')).toBe('cancelled');
  expect((await reload(pending)).status).toBe('pending');

  const expired = await created();
  await age(expired, DAY_MS + 1);
  const back = (await customer().cancel(expired)).body.data.cancelCheckout.redirectUrl as string;
  expect(new URL(back).searchParams.get('status')).toBe('failed');
});

test('race: cards submitted at the moment of expiry, against expiry moves: each payment has exactly one outcome', async () => {
  const outcomes: string[] = [];
  for (let i = 0; i < 12; i++) {
    const id = await created();
    // Within a few milliseconds of its deadline, one way or the other.
    await age(id, DAY_MS + (i % 2 === 0 ? -5 : 5) * (i + 1));
    const [paid] = await Promise.all([
      customer().pay(id, '4242424242424242'),
      expirePayment(service.em().fork(), service.services.checkout, id),
      expirePayment(service.em().fork(), service.services.checkout, id),
    ]);
    const payment = await reload(id);
    const entries = await service.em().count(LedgerEntry, { paymentId: id });
    const events = (await service.em().find(WebhookEvent, { paymentId: id })).map((e) => e.type);
    if (payment.status === 'completed') {
      // The live journal: the payment and the fee on the seller's side, and their counterparts.
      expect([entries, events, callsAbout(id)]).toEqual([4, ['payment.completed'], ['authorize']]);
    } else {
      expect([payment.status, payment.failureCode, entries, events, callsAbout(id)]).toEqual(['failed', 'expired', 0, ['payment.failed'], []]);
    }
    expect(paid.body.data.submitCard.status).toBe(payment.status.toUpperCase());
    outcomes.push(payment.status);
  }
  expect(outcomes.every((o) => o === 'completed' || o === 'failed')).toBe(true);
});
