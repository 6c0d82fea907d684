import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import Queue from 'bull';
import { WebhookDelivery } from '../../../src/modules/webhooks/webhook-delivery.entity';
import { WebhookEvent } from '../../../src/modules/webhooks/webhook-event.entity';
import { redisSnapshot, useOwnRedis } from '../../support/redis-server';
import { testRun } from '../../support/test-env';
import { useReceiver } from '../../support/webhook-receiver';
import { FAST_WEBHOOKS, settledDelivery, shopActor, sleep } from '../../support/webhook-support';
import { useTestService } from '../../support/test-service';

const redis = useOwnRedis();
const receiver = useReceiver();
const namespace = randomBytes(4).toString('hex');
const service = useTestService(() => ({ ...FAST_WEBHOOKS, REDIS_URL: redis.url }), namespace);
/** FAST_WEBHOOKS' timeout and the margin: how long a delivery handed to the queue is left to it. */
const LEASE_MS = 7000;
/** The bull prefix of the service's queues (REDIS_KEY_PREFIX and `bull`). */
const queuePrefix = () => `${testRun().redisPrefix}${namespace}:bull`;

test('Redis stopped during a completion: the payment completes, the event waits in PostgreSQL, and goes out when Redis is back', async () => {
  const actor = shopActor(service, (await service.createShop({ webhookUrl: receiver.url })).apiKey);
  await settledDelivery(service, await actor.completePayment()); // the queue works
  expect(receiver.received).toHaveLength(1);

  await redis.stop();
  const paymentId = await actor.completePayment(); // throws unless the payment completed
  expect((await actor.seller.retrieve(paymentId)).body.data.status).toBe('completed');
  const event = await service.em().findOneOrFail(WebhookEvent, { paymentId });
  await sleep(1500);
  expect(receiver.received).toHaveLength(1);
  expect(await service.em().findOneOrFail(WebhookDelivery, { event })).toMatchObject({ status: 'pending', attemptCount: 0 });

  await redis.start(); // empty: nothing of the old queue survived
  const [, hook] = await receiver.waitFor(2, 20_000);
  expect(hook.body.id).toBe(event.id);
  expect((await settledDelivery(service, paymentId)).status).toBe('delivered');
  await sleep(500);
  expect(receiver.received.filter((r) => r.body.id === event.id)).toHaveLength(1);
});

test('a job Redis keeps where no worker takes it does not hold the webhook back: a lease later it goes on the queue again as a job of its own', async () => {
  // A worker that took the job from the wait list as its Redis master died leaves it in bull's active list on the
  // promoted replica, with no lock and no worker: bull's stalled check frees it only after a minute or more, and a
  // job added again under the same id is ignored while it is there.
  receiver.reset();
  const actor = shopActor(service, (await service.createShop({ webhookUrl: receiver.url })).apiKey);
  await redis.stop();
  const paymentId = await actor.completePayment();
  const delivery = await service.em().findOneOrFail(WebhookDelivery, { paymentId }, { populate: ['event'] });
  const jobId = `${delivery.id}-0`;
  const queueKey = `${queuePrefix()}:webhook-deliveries:`;
  const snapshot = await redisSnapshot(async (client) => {
    await client.hset(`${queueKey}${jobId}`, {
      name: '__default__',
      data: JSON.stringify({ deliveryId: delivery.id, attemptCount: 0 }),
      opts: JSON.stringify({ jobId, attempts: 1, removeOnComplete: true, removeOnFail: true }),
      timestamp: Date.now(),
      delay: 0,
      priority: 0,
    });
    await client.lpush(`${queueKey}active`, jobId);
  });

  const startedAt = Date.now();
  await redis.start(snapshot);
  fs.rmSync(snapshot, { recursive: true, force: true }); // loaded: Redis saves nothing back
  const [hook] = await receiver.waitFor(1, 25_000);
  expect(hook.body.id).toBe(delivery.event.id);
  expect(Date.now() - startedAt).toBeGreaterThanOrEqual(LEASE_MS - 1000); // handed over once, then again after the lease
  expect(await settledDelivery(service, paymentId)).toMatchObject({ status: 'delivered', attemptCount: 1 });
});

test('a job that waits its turn longer than the lease is left to wait: the relay puts no copy of it on the queue', async () => {
  receiver.reset();
  const actor = shopActor(service, (await service.createShop({ webhookUrl: receiver.url })).apiKey);
  // The service's queue seen from outside, paused for every worker: a backlog no worker gets to.
  const queue = new Queue('webhook-deliveries', redis.url, { prefix: queuePrefix() });
  try {
    await queue.pause();
    const paymentId = await actor.completePayment();
    await sleep(LEASE_MS + 2000); // the lease runs out: the delivery is due again and handed over again
    expect(await queue.getWaitingCount()).toBe(1);
    await queue.resume();
    const [hook] = await receiver.waitFor(1);
    expect(hook.body.payment.id).toBe(paymentId);
    expect(await settledDelivery(service, paymentId)).toMatchObject({ status: 'delivered', attemptCount: 1 });
  } finally {
    await queue.resume();
    await queue.close();
  }
});
