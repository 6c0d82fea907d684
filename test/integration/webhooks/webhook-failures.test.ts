import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startReceiver, type Receiver } from '../../support/webhook-receiver';
import { FAST_WEBHOOKS, settledDelivery, shopActor, sleep } from '../../support/webhook-support';
import { startTestService, useTestService } from '../../support/test-service';
import { WebhookDelivery } from '../../../src/modules/webhooks/webhook-delivery.entity';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.received.length = 0;
  receiver.reply = () => ({ status: 200 });
});

describe('what counts as a failed attempt', () => {
  // Long enough that a receiver answering at once is never taken for a silent one on a loaded machine.
  const service = useTestService({ ...FAST_WEBHOOKS, WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_MAX_ATTEMPTS: '2' });
  let actor: ReturnType<typeof shopActor>;
  beforeAll(async () => {
    actor = shopActor(service, (await service.createShop({ webhookUrl: receiver.url })).apiKey);
  });

  test('a time-out (configurable) is a failure, recorded with its duration', async () => {
    receiver.reply = () => 'hold';
    const delivery = await settledDelivery(service, await actor.completePayment());
    expect(delivery.status).toBe('failed');
    const [first, second] = delivery.attempts;
    expect(first).toMatchObject({ httpStatus: null, error: 'timed out after 1000 ms' });
    expect(first.durationMs).toBeGreaterThanOrEqual(1000);
    expect(first.durationMs).toBeLessThan(3000);
    expect(second.error).toBe('timed out after 1000 ms');
  });

  test('a redirect is a failure and is not followed', async () => {
    receiver.reply = (req) => (req.path === '/hooks' ? { status: 302, headers: { Location: '/elsewhere' } } : { status: 200 });
    const delivery = await settledDelivery(service, await actor.completePayment());
    expect(delivery.status).toBe('failed');
    expect(receiver.received.every((r) => r.path === '/hooks')).toBe(true);
    expect(delivery.attempts[0]).toMatchObject({ httpStatus: 302, error: 'redirect not followed (Location: /elsewhere)' });
  });

  test('any status but 200 is a failure: 201 and 204 too', async () => {
    receiver.reply = (_req, n) => ({ status: n === 1 ? 201 : 204 });
    const delivery = await settledDelivery(service, await actor.completePayment());
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts.map((a) => a.httpStatus)).toEqual([201, 204]);
  });

  test('a refused connection is a failure with the error recorded', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const shop = await service.createShop({ webhookUrl: `http://127.0.0.1:${port}/gone` });
    const delivery = await settledDelivery(service, await shopActor(service, shop.apiKey).completePayment());
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts[0].error).toMatch(/^ECONNREFUSED/);
  });

  test('only the first 1 KB of an answer is kept', async () => {
    receiver.reply = () => ({ status: 500, body: 'x'.repeat(1000) + 'é'.repeat(100) + 'y'.repeat(5000) });
    const delivery = await settledDelivery(service, await actor.completePayment());
    const excerpt = delivery.attempts[0].responseExcerpt!;
    expect(Buffer.byteLength(excerpt)).toBeLessThanOrEqual(1024 + 2);
    expect(excerpt.startsWith('x'.repeat(1000))).toBe(true);
    expect(excerpt).not.toContain('y');
  });
});

describe('the schedule', () => {
  test('Retry-After on a 503 is honoured: the next attempt waits at least that long', async () => {
    const service = await startTestService({ ...FAST_WEBHOOKS, WEBHOOK_RETRY_BASE_DELAY_MS: '20' });
    try {
      receiver.reply = (_req, n) => (n === 1 ? { status: 503, headers: { 'Retry-After': '2' } } : { status: 200 });
      const actor = shopActor(service, (await service.createShop({ webhookUrl: receiver.url })).apiKey);
      const delivery = await settledDelivery(service, await actor.completePayment());
      expect(delivery.status).toBe('delivered');
      const [first, second] = receiver.received;
      expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(2000);
      expect(second.receivedAt - first.receivedAt).toBeLessThan(3500);
    } finally {
      await service.stop();
    }
  });

  test('the schedule lives in PostgreSQL: a retry due while the service is down is made by the next one, even with an empty Redis', async () => {
    const first = await startTestService({ ...FAST_WEBHOOKS, WEBHOOK_RETRY_BASE_DELAY_MS: '1500' });
    receiver.reply = (_req, n) => (n === 1 ? { status: 500 } : { status: 200 });
    const shop = await first.createShop({ webhookUrl: receiver.url });
    const paymentId = await shopActor(first, shop.apiKey).completePayment();
    await receiver.waitFor(1);
    await sleep(100);
    await first.stop();

    // A new process with its own Redis namespace: nothing of the old queue is visible to it.
    const second = await startTestService({ ...FAST_WEBHOOKS, WEBHOOK_RETRY_BASE_DELAY_MS: '1500' }, randomBytes(4).toString('hex'));
    try {
      const row = await second.em().findOneOrFail(WebhookDelivery, { paymentId });
      expect(row).toMatchObject({ status: 'pending', attemptCount: 1 });
      const delivered = await settledDelivery(second, paymentId);
      expect(delivered.status).toBe('delivered');
      expect(receiver.received).toHaveLength(2);
      expect(receiver.received[1].receivedAt - receiver.received[0].receivedAt).toBeGreaterThanOrEqual(1500);
    } finally {
      await second.stop();
    }
  });
});

describe('without Redis (the embedded default)', () => {
  test('the in-process scheduler runs the same delivery code: retries, then delivered', async () => {
    const service = await startTestService({ ...FAST_WEBHOOKS, REDIS_URL: '' });
    try {
      expect(service.redis).toBeUndefined();
      receiver.reply = (_req, n) => (n <= 2 ? { status: 500 } : { status: 200 });
      const actor = shopActor(service, (await service.createShop({ webhookUrl: receiver.url })).apiKey);
      const delivery = await settledDelivery(service, await actor.completePayment());
      expect(delivery.status).toBe('delivered');
      expect(delivery.attempts.map((a) => a.httpStatus)).toEqual([500, 500, 200]);
      await sleep(300);
      expect(receiver.received).toHaveLength(3);
    } finally {
      await service.stop();
    }
  });
});
