import { createHmac } from 'node:crypto';
import { checkoutClient } from '../../support/checkout-client';
import { VALID_PAYMENT } from '../../support/seller-client';
import { startReceiver, type Receiver } from '../../support/webhook-receiver';
import { FAST_WEBHOOKS, graphqlAs, shopActor, sleep } from '../../support/webhook-support';
import { useTestService, type TestService } from '../../support/test-service';

const service = useTestService(FAST_WEBHOOKS);
let subscribed: Receiver;
let unsubscribed: Receiver;
type NewShop = Awaited<ReturnType<TestService['createShop']>>;
let chooser: NewShop;
let plain: NewShop;

beforeAll(async () => {
  subscribed = await startReceiver();
  unsubscribed = await startReceiver();
  chooser = await service.createShop({ shopName: 'Chooses failures', webhookUrl: subscribed.url });
  plain = await service.createShop({ shopName: 'Default events', webhookUrl: unsubscribed.url });
});
afterAll(async () => {
  await subscribed.close();
  await unsubscribed.close();
});

const SET = `mutation ($events: [String!]!) { setWebhookEvents(events: $events) { id webhookEvents } }`;

async function declined(shop: NewShop): Promise<string> {
  const created = await shopActor(service, shop.apiKey).seller.create({ ...VALID_PAYMENT, amount: 777 });
  const paid = await checkoutClient(service.url).pay(created.body.data.id, '4000000000000002');
  expect(paid.body.data.submitCard.status).toBe('FAILED');
  return created.body.data.id;
}

describe('per-shop choice of webhook events', () => {
  test('a shop that chose payment.failed receives it for a declined card, signed like payment.completed; a shop that did not, does not', async () => {
    const chosen = await graphqlAs(service, chooser.apiKey)(SET, { events: ['payment.failed'] });
    expect(chosen.data?.setWebhookEvents.webhookEvents).toEqual(['payment.failed']);

    const failedId = await declined(chooser);
    const [hook] = await subscribed.waitFor(1);
    expect(hook.body).toMatchObject({ event: 'payment.failed', sequence: 1, payment: { id: failedId, amount: 777, status: 'failed', completed_at: null }, shop: { id: chooser.shop.id } });
    expect(Object.keys(hook.body.payment).sort()).toEqual(['amount', 'checkout_url', 'completed_at', 'created_at', 'currency', 'customer_email', 'customer_name', 'id', 'metadata', 'status']);
    expect(hook.headers['x-service-signature']).toBe(createHmac('sha256', chooser.webhookSecret).update(hook.rawBody).digest('hex'));

    await declined(plain);
    // The default shop still gets payment.completed, so its receiver works; only the failure is not sent.
    const completedId = await shopActor(service, plain.apiKey).completePayment();
    const [only] = await unsubscribed.waitFor(1);
    await sleep(500);
    expect(unsubscribed.received.map((r) => [r.body.event, r.body.payment.id])).toEqual([['payment.completed', completedId]]);
    expect(only.body.event).toBe('payment.completed');
  });

  test('unknown event names are refused and nothing changes', async () => {
    const answer = await graphqlAs(service, plain.apiKey)(SET, { events: ['payment.failed', 'payment.stolen'] });
    expect(answer.errors?.[0].extensions.code).toBe('WEBHOOK_EVENT_UNKNOWN');
    const read = await graphqlAs(service, plain.apiKey)(`query { currentShop { webhookEvents } }`);
    expect(read.data?.currentShop.webhookEvents ?? read.errors).toEqual([]);
  });
});
