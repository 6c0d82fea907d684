import request from 'supertest';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

const LIMIT = 5;
const sharedRedis = `shared-${Date.now()}`;
const a = useTestService({ RATE_LIMIT_PER_MINUTE: String(LIMIT), AUTH_FAILURES_PER_MINUTE: '3' }, sharedRedis);
const b = useTestService({ RATE_LIMIT_PER_MINUTE: String(LIMIT), AUTH_FAILURES_PER_MINUTE: '3' }, sharedRedis);

describe('rate limit: per API key per minute, counted in Redis', () => {
  test('every authenticated answer carries X-RateLimit-*, errors included, and the 6th request is refused', async () => {
    const seller = sellerClient(a.url, (await a.createShop()).apiKey);
    const answers = [
      await seller.test(),
      await seller.create({ ...VALID_PAYMENT, amount: 1 }),
      await seller.retrieve('pay_missing'),
      await seller.list(),
      await seller.create(VALID_PAYMENT),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 400, 404, 200, 200]);
    answers.forEach((res, i) => {
      expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
      expect(res.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1 - i));
      const reset = Number(res.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThan(Date.now() / 1000);
      expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
    });

    const refused = await seller.test();
    expect(refused.status).toBe(429);
    const seconds = Number(refused.headers['retry-after']);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(refused.body).toEqual({ success: false, error: `Rate limit exceeded. Try again in ${seconds} seconds.` });
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
  });

  test('two instances on one Redis share one budget per key', async () => {
    const { apiKey } = await a.createShop();
    const onA = sellerClient(a.url, apiKey);
    const onB = sellerClient(b.url, apiKey);
    const statuses = [];
    for (const client of [onA, onB, onA, onB, onA, onB]) statuses.push((await client.test()).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  test('each key has its own budget', async () => {
    const first = sellerClient(a.url, (await a.createShop()).apiKey);
    const second = sellerClient(a.url, (await a.createShop()).apiKey);
    for (let i = 0; i < LIMIT; i++) await first.test();
    expect((await first.test()).status).toBe(429);
    expect((await second.test()).status).toBe(200);
  });

  test('failed authentications are limited per client address, so keys cannot be guessed at speed', async () => {
    const guess = () => request(b.url).get('/api/v1/payments/test').set('Authorization', `Bearer svc_live_${'1'.repeat(64)}`);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await guess()).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const res = await request(b.url).get('/api/v1/payments/test');
    expect(res.status).toBe(429);
    expect(res.body.error).toMatch(/^Rate limit exceeded\. Try again in \d+ seconds\.$/);
  });
});
