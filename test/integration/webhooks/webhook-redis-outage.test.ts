import { WebhookDelivery } from '../../../src/modules/webhooks/webhook-delivery.entity';
import { WebhookEvent } from '../../../src/modules/webhooks/webhook-event.entity';
import { useOwnRedis } from '../../support/redis-server';
import { useReceiver } from '../../support/webhook-receiver';
import { FAST_WEBHOOKS, settledDelivery, shopActor, sleep } from '../../support/webhook-support';
import { useTestService } from '../../support/test-service';

const redis = useOwnRedis();
const receiver = useReceiver();
const service = useTestService(() => ({ ...FAST_WEBHOOKS, REDIS_URL: redis.url }));

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
