import type Bull from 'bull';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../../shared/config';
import type { Logger } from '../../shared/logger';
import type { Metrics } from '../../platform/observability/metrics';
import { continueTrace, currentTraceparent } from '../../platform/observability/tracing';
import { attemptDelivery, type DeliveryDeps } from './delivery';
import { openDeliveryQueue, queueDispatcher } from './delivery-queue';
import { startRelay, type Dispatcher, type Relay } from './relay';
import { onDeliveriesCommitted, WAKE_ON_COMMIT } from './wake-on-commit';
import { createSecretBox } from '../identity';
import { httpWebhookSender } from './webhook-sender';

/** Margin of a claimed attempt's lease beyond the time-out: DNS, database writes, a busy event loop. */
const LEASE_MARGIN_MS = 5000;
/** A relay with no successful pass for three poll intervals and this is stuck or failing (readiness says so). */
const RELAY_STALE_MARGIN_MS = 20_000;

export interface WebhookRuntime {
  /** Look for due deliveries now (after an admin's re-send; what `emit` writes wakes it by itself). */
  wake(): void;
  /**
   * For readiness: whether the relay's heartbeat is recent (a pass succeeded within three poll intervals and 20 s)
   * and, with Redis, this process's queue workers still take jobs; null when this process runs no relay.
   */
  alive(): boolean | null;
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
    secrets: createSecretBox(config.accountSecretsKey, config.accountSecretsOldKeys),
  };
  if (settings.allowPrivateNetworks) logger.warn('WEBHOOK_ALLOW_PRIVATE_NETWORKS=1: webhooks may go to http:// and internal addresses. Never in production.');

  let relay: Relay | null = null;
  const queues: Bull.Queue[] = [];
  let stopQueue = async () => {};
  let idle = async () => {};
  let workersTakeJobs = () => true;
  if (config.redisUrl) {
    const queue = openDeliveryQueue(config.redisUrl, config.redisKeyPrefix, logger);
    queues.push(queue.bull);
    deps.onRetryScheduled = (id, attemptCount, at) => {
      // Called in the attempt's span: the retry continues its trace.
      if (queue.ready()) queue.add([{ id, attemptCount, traceparent: currentTraceparent() }], at.getTime() - Date.now()).catch(() => undefined);
    };
    if (deliver) queue.process(settings.workerConcurrency, (job) => tracedAttempt(deps, job.deliveryId, job.attemptCount, job.traceparent));
    relay = startRelay(orm, queueDispatcher(queue, leaseMs), settings.pollIntervalMs, logger);
    stopQueue = () => queue.close(leaseMs);
    workersTakeJobs = () => !deliver || queue.processing();
  } else if (deliver) {
    const workers = inProcessWorkers(deps, settings.workerConcurrency, () => relay?.wake(), logger);
    relay = startRelay(orm, workers, settings.pollIntervalMs, logger);
    idle = workers.idle;
  }

  // One hook per ORM however many runtimes share it (the event manager keeps a subscriber once); it outlives a
  // stopped runtime, which MikroORM cannot unregister, but wakes only the relays still listening.
  orm.em.getEventManager().registerSubscriber(WAKE_ON_COMMIT);
  const stopListening = onDeliveriesCommitted(() => relay?.wake());
  const staleAfterMs = 3 * settings.pollIntervalMs + RELAY_STALE_MARGIN_MS;
  return {
    wake: () => relay?.wake(),
    alive: () => (relay ? Date.now() - relay.lastPassAt() <= staleAfterMs && workersTakeJobs() : null),
    queues,
    async stop() {
      stopListening();
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
      for (const { id, attemptCount, traceparent } of due) {
        const work = tracedAttempt(deps, id, attemptCount, traceparent)
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

/** One attempt, with tracing on a span continuing the trace its event was written in (docs/operations.md, "Tracing"). */
function tracedAttempt(deps: DeliveryDeps, deliveryId: string, attemptCount: number, traceparent: string | null | undefined) {
  return continueTrace(traceparent, 'webhook.deliver', { 'webhook.delivery_id': deliveryId, 'webhook.attempt': attemptCount + 1 }, () =>
    attemptDelivery(deps, deliveryId, attemptCount),
  );
}
