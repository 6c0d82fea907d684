import { randomBytes } from 'node:crypto';
import { watchNode, type WatchedProcess } from '../support/processes';
import { TEST_REDIS_URL, testRun } from '../support/test-env';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { FAST_WEBHOOKS, settledDelivery, shopActor } from '../support/webhook-support';
import { useTestService } from '../support/test-service';

/**
 * `npm run worker` (dist/src/apps/worker.js) as the only deliverer: the service relays but does not deliver.
 * A worker killed with SIGKILL while the receiver holds its request loses nothing: once the attempt's
 * lease (time-out + 5 s) runs out, the delivery is retried by another worker.
 */
const namespace = randomBytes(4).toString('hex');
const settings = { ...FAST_WEBHOOKS, WEBHOOK_TIMEOUT_MS: '2000' };
const service = useTestService({ ...settings, WEBHOOK_WORKERS_IN_SERVICE: '0' }, namespace);
let receiver: Receiver;
const workers: WatchedProcess[] = [];

function startWorker(): WatchedProcess {
  const { databaseUrl, redisPrefix } = testRun();
  const worker = watchNode('worker.js', [], {
    ...settings,
    DATABASE_URL: databaseUrl,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: `${redisPrefix}${namespace}:`,
    LOG_LEVEL: 'info',
  });
  workers.push(worker);
  return worker;
}

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  for (const worker of workers) await worker.stop('SIGKILL');
  await receiver.close();
});

test('a worker killed mid-delivery: the delivery is retried by the next worker and the lost attempt is on record', async () => {
  const first = startWorker();
  await first.waitFor(/webhook worker started/);
  receiver.reply = (_req, n) => (n === 1 ? 'hold' : { status: 200 });

  const paymentId = await shopActor(service, (await service.createShop({ webhookUrl: receiver.url })).apiKey).completePayment();
  await receiver.waitFor(1);
  expect(await first.stop('SIGKILL')).toBeNull(); // killed while the receiver still holds the request

  const second = startWorker();
  await second.waitFor(/webhook worker started/);
  const [lost, retried] = await receiver.waitFor(2, 30_000);
  expect(retried.rawBody.equals(lost.rawBody)).toBe(true);
  expect(retried.headers['webhook-id']).toBe(lost.headers['webhook-id']);
  expect(retried.headers['x-service-signature']).toBe(lost.headers['x-service-signature']);
  // Not before the lease (2 s time-out + 5 s margin) ran out; it was taken a little before the request arrived here.
  expect(retried.receivedAt - lost.receivedAt).toBeGreaterThanOrEqual(2000 + 5000 - 1000);

  const delivery = await settledDelivery(service, paymentId);
  expect(delivery.status).toBe('delivered');
  expect(delivery.attempts.map((a) => [a.number, a.httpStatus, a.error])).toEqual([
    [1, null, 'worker lost: no outcome was recorded'],
    [2, 200, null],
  ]);

  expect(await second.stop('SIGTERM')).toBe(0); // a graceful stop finishes cleanly
}, 60_000);
