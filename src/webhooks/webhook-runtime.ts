import type Bull from 'bull';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../shared/config';
import type { Logger } from '../shared/logger';
import type { Metrics } from '../observability/metrics';
import { attemptDelivery, type DeliveryDeps } from './delivery';
import { openDeliveryQueue, queueDispatcher } from './delivery-queue';
import { startRelay, type Dispatcher, type Relay } from './relay';
import { WakeOnCommit } from './wake-on-commit';
import { httpWebhookSender } from './webhook-sender';

/** Margin of a claimed attempt's lease beyond the time-out: DNS, database writes, a busy event loop. */
const LEASE_MARGIN_MS = 5000;

export interface WebhookRuntime {
  /** Look for due deliveries now (after a re-send). */
  wake(): void;
  /** The bull queues of this runtime (none without Redis), for the admins' queue dashboard. */
  queues: Bull.Queue[];
  /** Stops the relay and lets attempts in flight finish (up to the time-out); call before closing the database. */
  stop(): Promise<void>;
}

/**
 * Webhook delivery in this process. With Redis: a relay moves due deliveries from PostgreSQL into the
 * bull queue and, when `deliver`, this process's workers take jobs from it. Without Redis: the relay
 * hands due deliveries straight to in-process workers running the same `attemptDelivery`.
 */
export function startWebhookRuntime(config: Config, orm: MikroORM, logger: Logger, deliver: boolean, metrics?: Metrics): WebhookRuntime {
  const settings = config.webhooks;
  const leaseMs = settings.timeoutMs + LEASE_MARGIN_MS;
  const deps: DeliveryDeps = {
    orm,
    sender: httpWebhookSender({ timeoutMs: settings.timeoutMs, allowPrivateNetworks: settings.allowPrivateNetworks }),
    policy: { baseDelayMs: settings.retryBaseDelayMs, maxAttempts: settings.maxAttempts },
    leaseMs,
    logger,
    metrics,
  };
  if (settings.allowPrivateNetworks) logger.warn('WEBHOOK_ALLOW_PRIVATE_NETWORKS=1: webhooks may go to http:// and internal addresses. Never in production.');

  let relay: Relay | null = null;
  const queues: Bull.Queue[] = [];
  let stopQueue = async () => {};
  let idle = async () => {};
  if (config.redisUrl) {
    const queue = openDeliveryQueue(config.redisUrl, config.redisKeyPrefix, logger);
    queues.push(queue.bull);
    deps.onRetryScheduled = (id, attemptCount, at) => {
      if (queue.ready()) queue.add([{ id, attemptCount }], at.getTime() - Date.now()).catch(() => undefined);
    };
    if (deliver) queue.process(settings.workerConcurrency, (job) => attemptDelivery(deps, job.deliveryId, job.attemptCount));
    relay = startRelay(orm, queueDispatcher(queue, leaseMs), settings.pollIntervalMs, logger);
    stopQueue = () => queue.close(leaseMs);
  } else if (deliver) {
    const workers = inProcessWorkers(deps, settings.workerConcurrency, () => relay?.wake(), logger);
    relay = startRelay(orm, workers, settings.pollIntervalMs, logger);
    idle = workers.idle;
  }

  const wakeOnCommit = new WakeOnCommit(() => relay?.wake());
  orm.em.getEventManager().registerSubscriber(wakeOnCommit);
  return {
    wake: () => relay?.wake(),
    queues,
    async stop() {
      wakeOnCommit.deactivate();
      await relay?.stop();
      await stopQueue();
      await idle();
    },
  };
}

/** Without Redis: up to `concurrency` attempts at once in this process, each woken relay pass filling free slots. */
function inProcessWorkers(deps: DeliveryDeps, concurrency: number, freed: () => void, logger: Logger): Dispatcher & { idle(): Promise<void> } {
  const inFlight = new Map<string, Promise<void>>();
  return {
    capacity: () => concurrency - inFlight.size,
    busy: () => [...inFlight.keys()],
    async dispatch(due) {
      for (const { id, attemptCount } of due) {
        const work = attemptDelivery(deps, id, attemptCount)
          .then(() => undefined)
          .catch((error) => logger.error({ deliveryId: id, err: (error as Error).message }, 'webhook attempt failed to run'))
          .finally(() => {
            inFlight.delete(id);
            freed();
          });
        inFlight.set(id, work);
      }
    },
    async idle() {
      await Promise.all(inFlight.values());
    },
  };
}
