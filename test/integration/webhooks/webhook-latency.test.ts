import { startReceiver, type Receiver } from '../../support/webhook-receiver';
import { shopActor } from '../../support/webhook-support';
import { startTestService, useTestService } from '../../support/test-service';

/**
 * Completion to delivery with the default settings (only loopback http allowed): a completion wakes the relay
 * itself instead of waiting for its next poll, and a burst of EVENTS completions made AT_ONCE at a time is
 * delivered whole, each event once. How fast is `npm run bench`'s question ("completion -> webhook delivery",
 * docs/performance.md), not this suite's: the lag is printed here, never asserted.
 */
const EVENTS = Number(process.env.LAT_EVENTS ?? 200);
const AT_ONCE = Number(process.env.LAT_AT_ONCE ?? 10);

const service = useTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1', RATE_LIMIT_PER_MINUTE: '100000' });
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

test('a completion wakes the relay at once: delivered well before the next poll (10 s here)', async () => {
  const quiet = await startTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1', WEBHOOK_POLL_INTERVAL_MS: '10000' });
  try {
    await new Promise((resolve) => setTimeout(resolve, 300)); // past the relay's first pass at start
    const actor = shopActor(quiet, (await quiet.createShop({ webhookUrl: receiver.url })).apiKey);
    await actor.completePayment();
    const [hook] = await receiver.waitFor(1, 5000);
    expect(hook.receivedAt - Date.parse(hook.body.timestamp)).toBeLessThan(1000);
  } finally {
    await quiet.stop();
    receiver.received.length = 0;
  }
});

test(`a burst of ${EVENTS} completions: every event is delivered, each once`, async () => {
  const actor = shopActor(service, (await service.createShop({ webhookUrl: receiver.url })).apiKey);
  for (let sent = 0; sent < EVENTS; sent += AT_ONCE) await Promise.all(Array.from({ length: AT_ONCE }, () => actor.completePayment()));
  const hooks = await receiver.waitFor(EVENTS, 60_000);
  const lags = hooks.map((hook) => hook.receivedAt - Date.parse(hook.body.timestamp)).sort((a, b) => a - b);
  const at = (q: number) => lags[Math.min(lags.length - 1, Math.ceil(q * lags.length) - 1)];
  process.stdout.write(`webhook latency over ${EVENTS} events (${AT_ONCE} completions at a time): median ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${lags.at(-1)} ms\n`);
  expect(new Set(hooks.map((hook) => hook.body.id)).size).toBe(EVENTS);
  expect(hooks.every((hook) => hook.body.event === 'payment.completed')).toBe(true);
}, 120_000);
