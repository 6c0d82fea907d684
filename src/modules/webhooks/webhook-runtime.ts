import type Bull from 'bull';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../../shared/config';
import type { Logger } from '../../shared/logger';
import type { Metrics } from '../../platform/observability/metrics';
import { continueTrace } from '../../platform/observability/tracing';
import { startAttemptRelay } from '../../platform/outbox/attempt-relay';
import { attemptDelivery, type DeliveryDeps } from './delivery';
import { DELIVERIES_COMMITTED, dueDeliveries, markDeliveriesEnqueued } from './outbox-store';
import { createSecretBox } from '../identity';
import { httpWebhookSender } from './webhook-sender';

/** Margin of a claimed attempt's lease beyond the time-out: DNS, database writes, a busy event loop. */
const LEASE_MARGIN_MS = 5000;

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
 * Webhook delivery in this process, a use of the outbox engine (src/platform/outbox/attempt-relay.ts). With Redis: a
 * relay moves due deliveries from PostgreSQL into the bull queue and, when `deliver`, this process's workers take
 * jobs from it. Without Redis: the relay hands due deliveries straight to in-process workers running the same
 * `attemptDelivery`.
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

  const relay = startAttemptRelay({
    orm,
    signal: DELIVERIES_COMMITTED,
    logger,
    passFailed: 'webhook relay pass failed; retrying at the next tick',
    pollMs: settings.pollIntervalMs,
    leaseMs,
    concurrency: settings.workerConcurrency,
    deliver,
    redis: config.redisUrl ? { url: config.redisUrl, keyPrefix: config.redisKeyPrefix } : null,
    queue: { name: 'webhook-deliveries', idField: 'deliveryId', redisProblem: 'webhook queue: redis problem', processingStopped: 'webhook queue: processing stopped' },
    due: (limit, requeueAfterMs) => dueDeliveries(orm.em.fork(), limit, requeueAfterMs),
    markHandedOver: (due) => markDeliveriesEnqueued(orm.em.fork(), due),
    attempt: (id, attemptCount, traceparent) => tracedAttempt(deps, id, attemptCount, traceparent),
    failedToRun: (id, err) => logger.error({ deliveryId: id, err }, 'webhook attempt failed to run'),
  });
  deps.onRetryScheduled = relay.retryScheduled;
  return {
    // Every relay of the process listens; waking one that finds nothing is a cheap read.
    wake: () => DELIVERIES_COMMITTED.raise(),
    alive: relay.alive,
    queues: relay.queues,
    stop: relay.stop,
  };
}

/** One attempt, with tracing on a span continuing the trace its event was written in (docs/operations.md, "Tracing"). */
function tracedAttempt(deps: DeliveryDeps, deliveryId: string, attemptCount: number, traceparent: string | null | undefined) {
  return continueTrace(traceparent, 'webhook.deliver', { 'webhook.delivery_id': deliveryId, 'webhook.attempt': attemptCount + 1 }, () =>
    attemptDelivery(deps, deliveryId, attemptCount),
  );
}
