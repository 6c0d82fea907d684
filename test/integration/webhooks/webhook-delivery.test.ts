import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { Shop } from '../../../src/modules/identity/shop.entity';
import { FAST_WEBHOOKS, settledDelivery, shopActor, sleep, useWebhookService } from '../../support/webhook-support';
import type { TestService } from '../../support/test-service';

const suite = useWebhookService();
let shop: Awaited<ReturnType<TestService['createShop']>>;
let actor: ReturnType<typeof shopActor>;

beforeAll(async () => {
  shop = await suite.service.createShop({ shopName: 'Corner Bakery', webhookUrl: suite.receiver.url });
  actor = shopActor(suite.service, shop.apiKey);
});

const attemptsOf = (paymentId: string) => suite.receiver.received.filter((r) => r.body.payment.id === paymentId);

describe('a completed payment is delivered to the webhook URL', () => {
  test('one POST with the spec body, amount in integer cents, signed over the raw bytes both ways', async () => {
    const id = await actor.completePayment({ amount: 1999, metadata: { order_id: '42' } });
    const [hook] = await suite.receiver.waitFor(1);
    expect(hook.headers['content-type']).toBe('application/json');

    // The seller verifies on the raw body, as the spec says: hex HMAC-SHA256 keyed with the secret string.
    const expected = createHmac('sha256', shop.webhookSecret).update(hook.rawBody).digest();
    expect(timingSafeEqual(Buffer.from(String(hook.headers['x-service-signature']), 'hex'), expected)).toBe(true);
    expect(hook.headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
    // ... and with the Standard Webhooks library, which also checks the timestamp.
    const verified = new Webhook(shop.webhookSecret).verify(hook.rawBody.toString('utf8'), hook.headers as Record<string, string>);
    expect(verified).toEqual(hook.body);
    expect(hook.headers['webhook-id']).toBe(hook.body.id);
    expect(hook.headers['x-service-test']).toBeUndefined();

    const retrieved = (await actor.seller.retrieve(id)).body.data;
    expect(hook.body).toEqual({
      id: expect.stringMatching(/^evt_/),
      event: 'payment.completed',
      sequence: 1,
      payment: retrieved,
      shop: { id: shop.shop.id, shop_name: 'Corner Bakery' },
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(hook.body.payment).toMatchObject({ amount: 1999, status: 'completed', metadata: { order_id: '42' } });
    // One payload: the webhook's payment is the REST retrieve answer, key for key in the same order.
    expect(JSON.stringify(hook.body.payment)).toBe(JSON.stringify(retrieved));

    const delivery = await settledDelivery(suite.service, id);
    expect(delivery.status).toBe('delivered');
    await sleep(300);
    expect(attemptsOf(id)).toHaveLength(1);
  });

  test('a shop deleted between two attempts gets no further request: the attempt records that it has no URL, and the delivery ends', async () => {
    const doomed = await suite.service.createShop({ shopName: 'Closing Down', webhookUrl: suite.receiver.url });
    const doomedActor = shopActor(suite.service, doomed.apiKey);
    suite.receiver.reply = async (_req, n) => {
      if (n === 1) await suite.service.em().nativeUpdate(Shop, { id: doomed.shop.id }, { deletedAt: new Date() });
      return { status: 500, body: 'boom' };
    };
    const id = await doomedActor.completePayment();
    const delivery = await settledDelivery(suite.service, id);
    await sleep(300);
    expect(attemptsOf(id)).toHaveLength(1);
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts.map((a) => [a.number, a.url, a.httpStatus, a.error])).toEqual([
      [1, suite.receiver.url, 500, null],
      [2, null, null, 'the shop has no webhook URL'],
    ]);
  });

  test('a receiver answering 500 twice, then 200, sees exactly three attempts with the same bytes and signature', async () => {
    suite.receiver.reply = (_req, n) => (n <= 2 ? { status: 500, body: 'boom' } : { status: 200 });
    const id = await actor.completePayment();
    const delivery = await settledDelivery(suite.service, id);
    await sleep(500); // a fourth attempt would have come by now (the schedule runs in milliseconds)
    const seen = attemptsOf(id);
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((r) => r.rawBody.toString('hex'))).size).toBe(1);
    expect(new Set(seen.map((r) => r.headers['x-service-signature'])).size).toBe(1);
    expect(new Set(seen.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(delivery.status).toBe('delivered');
    expect(delivery.attempts.map((a) => [a.number, a.httpStatus, a.responseExcerpt])).toEqual([
      [1, 500, 'boom'],
      [2, 500, 'boom'],
      [3, 200, null],
    ]);
  });

  test('a receiver that never answers 200 sees the whole schedule, growing gaps, then the delivery is failed and can be re-sent', async () => {
    suite.receiver.reply = () => ({ status: 503, body: 'down for maintenance' });
    const id = await actor.completePayment();
    const failed = await settledDelivery(suite.service, id);
    await sleep(500);
    const seen = attemptsOf(id);
    expect(seen).toHaveLength(Number(FAST_WEBHOOKS.WEBHOOK_MAX_ATTEMPTS));
    expect(failed.status).toBe('failed');
    expect(failed.nextAttemptAt).toBeNull();
    const gaps = seen.slice(1).map((r, i) => r.receivedAt - seen[i].receivedAt);
    // base 50 ms: 50, 100, 200 ms (+ up to 20%), each at least its nominal value
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(50 * 2 ** i - 5));

    suite.receiver.reply = () => ({ status: 200 });
    const resent = await suite.admin(`mutation($id: ID!) { resendWebhookDelivery(id: $id) { status attemptCount } }`, { id: failed.id });
    expect(resent.data?.resendWebhookDelivery).toEqual({ status: 'PENDING', attemptCount: 4 });
    await suite.receiver.waitFor(5);
    const delivered = await settledDelivery(suite.service, id);
    expect(delivered.status).toBe('delivered');
    expect(delivered.attempts.map((a) => a.httpStatus)).toEqual([503, 503, 503, 503, 200]);
    expect(attemptsOf(id).map((r) => r.headers['webhook-id'])).toEqual(Array(5).fill(seen[0].body.id));
  });
});
