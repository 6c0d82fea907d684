import request from 'supertest';
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { AuditEntry } from '../../../src/modules/audit/audit-entry.entity';
import { Shop } from '../../../src/modules/identity/shop.entity';
import { graphqlAs, settledDelivery, shopActor, sleep, useWebhookService } from '../../support/webhook-support';
import type { TestService } from '../../support/test-service';

const suite = useWebhookService();
let shop: Awaited<ReturnType<TestService['createShop']>>;
let other: Awaited<ReturnType<TestService['createShop']>>;
let seller: ReturnType<typeof graphqlAs>;

beforeAll(async () => {
  shop = await suite.service.createShop({ shopName: 'Corner Bakery' });
  other = await suite.service.createShop({ shopName: 'Other Shop', webhookUrl: suite.receiver.url });
  seller = graphqlAs(suite.service, shop.apiKey);
});

const SET_URL = 'mutation($url: String, $shop: ID) { setWebhookUrl(url: $url, shopId: $shop) { id webhookUrl } }';
const ROTATE = 'mutation($shop: ID) { rotateWebhookSecret(shopId: $shop) { webhookSecret shop { id } } }';
const SEND_TEST = 'mutation($shop: ID) { sendTestWebhook(shopId: $shop) { id status test eventType paymentId } }';
const RESEND = 'mutation($id: ID!) { resendWebhookDelivery(id: $id) { id status } }';
const LOG = `query($shop: ID, $payment: ID, $status: WebhookDeliveryStatus, $limit: Int) {
  webhookDeliveries(shopId: $shop, paymentId: $payment, status: $status, limit: $limit) {
    items { id status eventId eventType sequence test shopId paymentId attemptCount nextAttemptAt lastAttemptAt deliveredAt failedAt createdAt
            attempts { number url startedAt durationMs httpStatus error responseExcerpt } }
    pagination { page limit total pages }
  }
}`;
const code = (res: Awaited<ReturnType<typeof seller>>) => res.errors?.[0]?.extensions.code;

describe('webhook URL', () => {
  test("a seller's key sets and clears its own shop's URL", async () => {
    expect((await seller(SET_URL, { url: suite.receiver.url })).data?.setWebhookUrl).toEqual({ id: shop.shop.id, webhookUrl: suite.receiver.url });
    expect((await seller('{ currentShop { webhookUrl } }')).data?.currentShop.webhookUrl).toBe(suite.receiver.url);
    expect((await seller(SET_URL, { url: null })).data?.setWebhookUrl.webhookUrl).toBeNull();
    expect((await suite.service.em().findOneOrFail(Shop, shop.shop.id)).webhookUrl).toBeNull();
  });

  test("a seller cannot touch another shop's settings", async () => {
    expect(code(await seller(SET_URL, { url: suite.receiver.url, shop: other.shop.id }))).toBe('SHOP_NOT_FOUND');
    expect(code(await seller(ROTATE, { shop: other.shop.id }))).toBe('SHOP_NOT_FOUND');
  });

  test('an admin sets any shop\'s URL by id, audited, and must name the shop', async () => {
    expect((await suite.admin(SET_URL, { url: suite.receiver.url, shop: shop.shop.id })).data?.setWebhookUrl.webhookUrl).toBe(suite.receiver.url);
    const audit = await suite.service.em().find(AuditEntry, { targetId: shop.shop.id, action: 'shop.webhook_url_set' });
    expect(audit.map((a) => a.details)).toEqual([{ before: null, after: suite.receiver.url }]);
    expect(code(await suite.admin(SET_URL, { url: suite.receiver.url }))).toBe('MISSING_FIELD');
    expect(code(await suite.admin(SET_URL, { url: suite.receiver.url, shop: 'shop_nope' }))).toBe('SHOP_NOT_FOUND');
  });

  test('callers without credentials cannot run these operations', async () => {
    const res = await request(suite.service.url).post('/graphql').send({ query: ROTATE, variables: {} });
    expect(res.status).toBe(401);
    expect(JSON.stringify(res.body)).not.toContain('whsec_');
  });
});

describe('webhook secret rotation', () => {
  test('the new secret is shown once and signs every delivery from then on; the old one no longer verifies', async () => {
    await suite.admin(SET_URL, { url: suite.receiver.url, shop: shop.shop.id });
    const rotated = (await seller(ROTATE)).data?.rotateWebhookSecret;
    expect(rotated.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.webhookSecret).not.toBe(shop.webhookSecret);
    expect(JSON.stringify((await seller('{ currentShop { id name webhookUrl } }')).data)).not.toContain('whsec_');

    await shopActor(suite.service, shop.apiKey).completePayment();
    const [hook] = await suite.receiver.waitFor(1);
    const hex = (secret: string) => createHmac('sha256', secret).update(hook.rawBody).digest('hex');
    expect(hook.headers['x-service-signature']).toBe(hex(rotated.webhookSecret));
    expect(hook.headers['x-service-signature']).not.toBe(hex(shop.webhookSecret));
    expect(() => new Webhook(rotated.webhookSecret).verify(hook.rawBody.toString(), hook.headers as Record<string, string>)).not.toThrow();
    expect(() => new Webhook(shop.webhookSecret).verify(hook.rawBody.toString(), hook.headers as Record<string, string>)).toThrow();
    shop.webhookSecret = rotated.webhookSecret;
  });
});

describe('test deliveries', () => {
  test('a sample payment.completed, marked X-Service-Test: true, signed like any other, sent once', async () => {
    await suite.admin(SET_URL, { url: suite.receiver.url, shop: shop.shop.id });
    suite.receiver.reply = () => ({ status: 500, body: 'not ready' });
    const sent = (await seller(SEND_TEST)).data?.sendTestWebhook;
    expect(sent).toMatchObject({ status: 'PENDING', test: true, eventType: 'payment.completed', paymentId: null });
    const [hook] = await suite.receiver.waitFor(1);
    expect(hook.headers['x-service-test']).toBe('true');
    expect(hook.body).toMatchObject({
      event: 'payment.completed',
      sequence: 1,
      payment: { id: expect.stringMatching(/^pay_TEST/), amount: 5000, currency: 'usd', status: 'completed', metadata: { order_id: 'test-order' } },
      shop: { id: shop.shop.id, shop_name: 'Corner Bakery' },
    });
    // The same payload shape as a real event: the retrieve payload's keys, in its order.
    expect(Object.keys(hook.body.payment)).toEqual(['id', 'amount', 'currency', 'status', 'checkout_url', 'customer_email', 'customer_name', 'metadata', 'created_at', 'completed_at']);
    expect(hook.headers['x-service-signature']).toBe(createHmac('sha256', shop.webhookSecret).update(hook.rawBody).digest('hex'));
    await sleep(400);
    expect(suite.receiver.received).toHaveLength(1); // a test delivery is not retried
    const logged = await suite.admin('query($id: ID!) { webhookDelivery(id: $id) { status attempts { httpStatus responseExcerpt } } }', { id: sent.id });
    expect(logged.data?.webhookDelivery).toEqual({ status: 'FAILED', attempts: [{ httpStatus: 500, responseExcerpt: 'not ready' }] });
  });

  test('an admin sends one for any shop; without a webhook URL there is nothing to send to', async () => {
    expect((await suite.admin(SEND_TEST, { shop: other.shop.id })).data?.sendTestWebhook.test).toBe(true);
    await suite.receiver.waitFor(1);
    const bare = await suite.service.createShop();
    expect(code(await graphqlAs(suite.service, bare.apiKey)(SEND_TEST))).toBe('WEBHOOK_URL_NOT_SET');
  });
});

describe('the delivery log and re-sending', () => {
  let failedPayment: string;
  let deliveredPayment: string;

  beforeAll(async () => {
    // The failed delivery is the older one: it is listed first because it failed, not because it is newest.
    const actor = shopActor(suite.service, other.apiKey);
    suite.receiver.reply = () => ({ status: 500, body: 'broken' });
    failedPayment = await actor.completePayment();
    await settledDelivery(suite.service, failedPayment);
    suite.receiver.reply = () => ({ status: 200 });
    deliveredPayment = await actor.completePayment();
    await settledDelivery(suite.service, deliveredPayment);
  });

  test('admins read every attempt per shop, failed deliveries first', async () => {
    const res = await suite.admin(LOG, { shop: other.shop.id });
    const items = res.data?.webhookDeliveries.items;
    expect(items[0]).toMatchObject({ status: 'FAILED', paymentId: failedPayment, attemptCount: 4, nextAttemptAt: null, failedAt: expect.any(String), test: false, sequence: 1 });
    expect(items[0].attempts).toHaveLength(4);
    expect(items[0].attempts[0]).toEqual({
      number: 1, url: suite.receiver.url, startedAt: expect.any(String), durationMs: expect.any(Number), httpStatus: 500, error: null, responseExcerpt: 'broken',
    });
    expect(items.slice(1).every((d: { status: string }) => d.status !== 'FAILED')).toBe(true);
    expect(items.map((d: { paymentId: string }) => d.paymentId)).toContain(deliveredPayment);
  });

  test('per payment, and filtered by status', async () => {
    const perPayment = (await suite.admin(LOG, { payment: deliveredPayment })).data?.webhookDeliveries;
    expect(perPayment.items).toHaveLength(1);
    expect(perPayment.items[0]).toMatchObject({ status: 'DELIVERED', attemptCount: 1, deliveredAt: expect.any(String), attempts: [{ httpStatus: 200 }] });
    const failedOnly = (await suite.admin(LOG, { shop: other.shop.id, status: 'FAILED' })).data?.webhookDeliveries;
    expect(failedOnly.items.every((d: { status: string }) => d.status === 'FAILED')).toBe(true);
    expect(failedOnly.pagination).toMatchObject({ page: 1, total: failedOnly.items.length });
  });

  test("sellers see only their own shop's log", async () => {
    const own = (await graphqlAs(suite.service, other.apiKey)(LOG, {})).data?.webhookDeliveries.items;
    expect(own.every((d: { shopId: string }) => d.shopId === other.shop.id)).toBe(true);
    expect(own.length).toBeGreaterThan(0);
    expect(code(await seller(LOG, { shop: other.shop.id }))).toBe('SHOP_NOT_FOUND');
    expect((await seller(LOG, { payment: failedPayment })).data?.webhookDeliveries.items).toEqual([]);
  });

  test('a failed delivery is re-sent: same event, same bytes, a new schedule; a pending one cannot be', async () => {
    const [failed] = (await suite.admin(LOG, { payment: failedPayment })).data?.webhookDeliveries.items;
    expect(code(await seller(RESEND, { id: failed.id }))).toBe('WEBHOOK_DELIVERY_NOT_FOUND');
    suite.receiver.received.length = 0;
    suite.receiver.reply = () => 'hold';
    expect((await graphqlAs(suite.service, other.apiKey)(RESEND, { id: failed.id })).data?.resendWebhookDelivery).toEqual({ id: failed.id, status: 'PENDING' });
    await suite.receiver.waitFor(1);
    expect(code(await suite.admin(RESEND, { id: failed.id }))).toBe('WEBHOOK_DELIVERY_PENDING');
    expect(suite.receiver.received[0].body.id).toBe(failed.eventId);
  });
});
