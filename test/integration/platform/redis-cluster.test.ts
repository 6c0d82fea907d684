import { AdminRole } from '../../../src/modules/admins/admin-role';
import { Payment } from '../../../src/modules/payments/payment.entity';
import { Shop, ShopStatus } from '../../../src/modules/identity/shop.entity';
import { adminClient, eventually } from '../../support/admin-client';
import { checkoutClient } from '../../support/checkout-client';
import { useRedisCluster } from '../../support/redis-cluster';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';
import { useReceiver } from '../../support/webhook-receiver';
import { FAST_WEBHOOKS, settledDelivery, shopActor } from '../../support/webhook-support';

/**
 * Two service instances on a three-master Redis Cluster (REDIS_URL=redis-cluster://…; docs/scaling.md,
 * "Redis Cluster"): the shared limits, the card-testing guard, the bull queues and the credential-cache
 * invalidation behave as on one Redis, and the keys really spread over the masters.
 */
jest.setTimeout(90_000);

const RATE_LIMIT = 40;
const cluster = useRedisCluster();
const receiver = useReceiver();
const env = () => ({ ...FAST_WEBHOOKS, REDIS_URL: cluster.url, RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT), CHECKOUT_DECLINES_PER_SHOP: '2', REFUND_SWEEP_INTERVAL_MS: '600000' });
const a = useTestService(env, 'cluster');
const b = useTestService(env, 'cluster');

test('both instances reach the cluster (the health check pings it)', async () => {
  const res = await fetch(`${a.url}/readyz`);
  expect(await res.json()).toMatchObject({ status: 'ok', redis: 'up' });
});

test('one API key has one budget across both instances', async () => {
  const { apiKey } = await a.createShop();
  const statuses: number[] = [];
  for (let i = 0; i < RATE_LIMIT + 1; i++) statuses.push((await sellerClient(i % 2 ? a.url : b.url, apiKey).test()).status);
  expect(statuses.slice(0, RATE_LIMIT)).toEqual(Array(RATE_LIMIT).fill(200));
  expect(statuses[RATE_LIMIT]).toBe(429);
});

test('the card-testing guard counts one shop\'s declines across both instances', async () => {
  const { apiKey } = await a.createShop();
  const pay = async (url: string, card: string) => {
    const id = (await sellerClient(a.url, apiKey).create(VALID_PAYMENT)).body.data.id as string;
    return checkoutClient(url).pay(id, card);
  };
  expect((await pay(a.url, '4000000000000002')).body.data.submitCard.status).toBe('FAILED');
  expect((await pay(b.url, '4000000000000002')).body.data.submitCard.status).toBe('FAILED');
  expect((await pay(a.url, '4242424242424242')).body.errors[0].extensions.code).toBe('CHECKOUT_RATE_LIMITED');
});

test('a revoked shop stops on the other instance at once (pub/sub on the cluster)', async () => {
  const { apiKey, shop } = await a.createShop();
  expect((await sellerClient(b.url, apiKey).test()).status).toBe(200);
  await a.em().nativeUpdate(Shop, { id: shop.id }, { status: ShopStatus.INACTIVE });
  await a.services.credentials.invalidateShop(shop.id);
  await eventually(async () => (await sellerClient(b.url, apiKey).test()).status === 401, 5000, 'the other instance to refuse the key');
});

test('webhook deliveries and refunds run through their bull queues, whose keys share one hash slot', async () => {
  const { apiKey } = await a.createShop({ webhookUrl: receiver.url });
  const paymentId = await shopActor(a, apiKey).completePayment();
  expect((await settledDelivery(b, paymentId)).status).toBe('delivered');

  // The refund sweep is far away: only the queue can carry the approved refund out in time.
  const support = await adminClient(a, AdminRole.SUPPORT);
  const finance = await adminClient(b, AdminRole.FINANCE);
  const { requestRefund } = await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "returned") { id } }`, { p: paymentId });
  await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: requestRefund.id });
  await eventually(async () => (await a.em().findOneOrFail(Payment, { id: paymentId }, { refresh: true })).status === 'refunded', 10_000, 'the refund');

  const keysByNode = await Promise.all(cluster.ports.map((port) => cluster.node(port).keys('*')));
  for (const queue of [':webhook-deliveries:', ':refunds:']) {
    const queueKeys = keysByNode.map((keys) => keys.filter((key) => key.includes(queue)));
    expect(queueKeys.filter((keys) => keys.length > 0)).toHaveLength(1);
    expect(queueKeys.flat().every((key) => key.startsWith('{'))).toBe(true);
  }
  // The other keys (rate limits, windows) spread: the cluster is really sharded, not one node doing all.
  expect(keysByNode.filter((keys) => keys.length > 0).length).toBeGreaterThanOrEqual(2);
});
