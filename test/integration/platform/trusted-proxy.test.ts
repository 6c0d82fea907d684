import request from 'supertest';
import { checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { startTestService, useServiceWithShop } from '../../support/test-service';

/**
 * Behind a load balancer every request comes from the balancer's address. With
 * TRUST_PROXY naming the balancer, per-client limits count the address it forwards (X-Forwarded-For);
 * from any other peer the header is ignored, so a client cannot dodge a limit by writing it.
 * Every request of these tests comes from 127.0.0.1: the "balancer" when loopback is trusted.
 */

const DECLINED = '4000000000000002';
const APPROVED = '4242424242424242';
const WRONG_KEY = `Bearer svc_live_${'0'.repeat(64)}`;
const LIMITS = { CHECKOUT_DECLINES_PER_CLIENT: '2', CHECKOUT_SUBMISSIONS_PER_CLIENT: '1000', AUTH_FAILURES_PER_MINUTE: '3' };

let counter = 0;
/** A fresh documentation address (RFC 5737) per call, so forged headers never repeat. */
const someAddress = () => `203.0.113.${(counter++ % 250) + 1}`;

/** The service with LIMITS and `env` and one shop, for the enclosing `describe`, and what its tests send. */
function useServiceWith(env: Record<string, string>) {
  const started = useServiceWithShop({ ...LIMITS, ...env });
  /** A card submission on a new payment from a customer whose request carries `forwardedFor`. */
  const pay = async (card: string, forwardedFor: string) => {
    const id = (await sellerClient(started.service.url, started.apiKey).create(VALID_PAYMENT)).body.data.id;
    const res = await checkoutClient(started.service.url, { 'X-Forwarded-For': forwardedFor }).pay(id, card);
    return res.body.data?.submitCard?.status ?? res.body.errors?.[0]?.extensions?.code;
  };
  const wrongKey = (forwardedFor: string) =>
    request(started.service.url).get('/api/v1/payments/test').set('Authorization', WRONG_KEY).set('X-Forwarded-For', forwardedFor);
  return {
    get service() {
      return started.service;
    },
    pay,
    wrongKey,
  };
}

describe('TRUST_PROXY=loopback: the balancer on this machine is believed', () => {
  const ctx = useServiceWith({ TRUST_PROXY: 'loopback' });

  test('a card tester blocked after its declines does not block other customers', async () => {
    const tester = '198.51.100.7';
    expect(await ctx.pay(DECLINED, tester)).toBe('FAILED');
    expect(await ctx.pay(DECLINED, tester)).toBe('FAILED');
    expect(await ctx.pay(APPROVED, tester)).toBe('CHECKOUT_RATE_LIMITED');
    expect(await ctx.pay(APPROVED, '198.51.100.8')).toBe('COMPLETED');
    expect(await ctx.pay(APPROVED, '2001:db8::8')).toBe('COMPLETED');
  });

  test('the tester cannot escape by prepending addresses: the balancer appends the real one, and only that is believed', async () => {
    const tester = '198.51.100.9';
    expect(await ctx.pay(DECLINED, `${someAddress()}, ${tester}`)).toBe('FAILED');
    expect(await ctx.pay(DECLINED, `${someAddress()}, ${tester}`)).toBe('FAILED');
    expect(await ctx.pay(APPROVED, `${someAddress()}, ${someAddress()}, ${tester}`)).toBe('CHECKOUT_RATE_LIMITED');
  });

  test('an IPv6 client counts as its /64: a new address in the block per try does not help', async () => {
    expect(await ctx.pay(DECLINED, '2001:db8:1:2::1')).toBe('FAILED');
    expect(await ctx.pay(DECLINED, '2001:db8:1:2:ffff::2')).toBe('FAILED');
    expect(await ctx.pay(APPROVED, '2001:db8:1:2:abcd:1234:5678:9')).toBe('CHECKOUT_RATE_LIMITED');
    expect(await ctx.pay(APPROVED, '2001:db8:1:3::1')).toBe('COMPLETED');
  });

  test('failed authentications are limited per forwarded client', async () => {
    const guesser = '198.51.100.10';
    for (let i = 0; i < 3; i++) expect((await ctx.wrongKey(guesser)).status).toBe(401);
    const limited = await ctx.wrongKey(guesser);
    expect([limited.status, limited.body]).toEqual([429, { success: false, error: expect.stringMatching(/^Rate limit exceeded\. Try again in \d+ seconds\.$/) }]);
    const other = await ctx.wrongKey('198.51.100.11');
    expect([other.status, other.body]).toEqual([401, { success: false, error: 'Invalid API key' }]);
  });

  test('/metrics without a token: the loopback balancer does not make every client local', async () => {
    expect((await request(ctx.service.url).get('/metrics')).status).toBe(200);
    expect((await request(ctx.service.url).get('/metrics').set('X-Forwarded-For', '198.51.100.12')).status).toBe(403);
  });
});

describe.each([
  ['TRUST_PROXY unset', {}],
  ['TRUST_PROXY naming other proxies only', { TRUST_PROXY: '10.0.0.0/8, 192.0.2.1' }],
])('%s: X-Forwarded-For from this peer is ignored', (_name, env) => {
  const ctx = useServiceWith(env);

  test('a new forged address on every request does not dodge the card-testing block', async () => {
    expect(await ctx.pay(DECLINED, someAddress())).toBe('FAILED');
    expect(await ctx.pay(DECLINED, someAddress())).toBe('FAILED');
    expect(await ctx.pay(APPROVED, someAddress())).toBe('CHECKOUT_RATE_LIMITED');
  });

  test('nor the failed-authentication limit', async () => {
    for (let i = 0; i < 3; i++) expect((await ctx.wrongKey(someAddress())).status).toBe(401);
    expect((await ctx.wrongKey(someAddress())).status).toBe(429);
  });

  test('/metrics answers the local peer whatever it forwards', async () => {
    expect((await request(ctx.service.url).get('/metrics').set('X-Forwarded-For', someAddress())).status).toBe(200);
  });
});

describe('HSTS follows BASE_URL, not the connection', () => {
  test.each([
    ['https', 'https://pay.example.test', 'max-age=31536000; includeSubDomains'],
    ['http', 'http://localhost:3000', undefined],
  ])('BASE_URL %s', async (_scheme, baseUrl, expected) => {
    const service = await startTestService({ BASE_URL: baseUrl });
    try {
      const { apiKey } = await service.createShop();
      const answers = await Promise.all([
        request(service.url).get('/api/v1/payments/test').set('Authorization', `Bearer ${apiKey}`),
        request(service.url).post('/graphql').send({ query: '{ currentShop { id } }' }),
        request(service.url).get('/checkout/pay_000000000000000000000000'),
        request(service.url).get('/api/v1/docs'),
        request(service.url).get('/livez'),
      ]);
      expect(answers.map((res) => res.headers['strict-transport-security'])).toEqual(answers.map(() => expected));
    } finally {
      await service.stop();
    }
  });
});
