import { randomBytes } from 'node:crypto';
import { WebhookDelivery } from '../../../src/modules/webhooks/webhook-delivery.entity';
import { startReceiver, type Receiver } from '../../support/webhook-receiver';
import { FAST_WEBHOOKS, shopActor, sleep } from '../../support/webhook-support';
import { useTestService } from '../../support/test-service';

const PAYMENTS = 120;
const AT_ONCE = 30;

// Two instances on one database and one queue: two relays and two worker pools compete for every event.
const namespace = randomBytes(4).toString('hex');
// What is judged is exactly-once delivery. A receiver in this same busy process may answer a POST after
// the tests' 2 s attempt time-out (a retry then delivers again, as at-least-once allows), and a burst of
// completions on two cores may wait longer than the 5 s statement time-out: both are other tests' matters.
const env = { ...FAST_WEBHOOKS, WEBHOOK_TIMEOUT_MS: '10000', DATABASE_STATEMENT_TIMEOUT_MS: '0', RATE_LIMIT_PER_MINUTE: '100000' };
const services = [useTestService(env, namespace), useTestService(env, namespace)];
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

test('a burst of completions across two instances: every event delivered exactly once', async () => {
  const shop = await services[0].createShop({ webhookUrl: receiver.url });
  const actors = services.map((service) => shopActor(service, shop.apiKey));
  const paymentIds: string[] = [];
  for (let sent = 0; sent < PAYMENTS; sent += AT_ONCE) {
    paymentIds.push(...(await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => actors[i % 2].completePayment({ amount: 100 + sent + i })))));
  }
  await receiver.waitFor(PAYMENTS, 60_000);
  await sleep(1000); // time for any duplicate to show up

  const byEvent = new Map<string, number>();
  for (const hook of receiver.received) byEvent.set(hook.body.id, (byEvent.get(hook.body.id) ?? 0) + 1);
  expect(receiver.received).toHaveLength(PAYMENTS);
  expect(byEvent.size).toBe(PAYMENTS);
  expect([...byEvent.values()].every((count) => count === 1)).toBe(true);
  expect(new Set(receiver.received.map((r) => r.body.payment.id))).toEqual(new Set(paymentIds));

  const deliveries = await services[0].em().find(WebhookDelivery, { paymentId: { $in: paymentIds } });
  expect(deliveries.every((d) => d.status === 'delivered' && d.attemptCount === 1)).toBe(true);
}, 120_000);
