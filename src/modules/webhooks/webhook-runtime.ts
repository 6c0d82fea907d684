import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../../shared/config';
import type { Logger } from '../../shared/logger';
import type { Metrics } from '../../platform/observability/metrics';
import { continueTrace } from '../../platform/observability/tracing';
import { startAttemptRelay, type AttemptRuntime } from '../../platform/outbox/attempt-relay';
import { attemptDelivery, type DeliveryDeps } from './delivery';
import { DELIVERY_STATEMENTS } from './outbox-store';
import { createSecretBox } from '../identity';
import { httpWebhookSender } from './webhook-sender';

/** Margin of a claimed attempt's lease beyond the time-out: DNS, database writes, a busy event loop. */
const LEASE_MARGIN_MS = 5000;

/** Webhook delivery in this process: `wake` after an admin's re-send (what `emit` writes wakes the relays by itself). */
export type WebhookRuntime = AttemptRuntime;

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

  const attempt = (id: string, attemptCount: number, traceparent: string | null | undefined) => tracedAttempt(deps, id, attemptCount, traceparent);
  const relay = startAttemptRelay({
    orm, config, logger, deliver, attempt, settings: { ...settings, leaseMs },
    statements: DELIVERY_STATEMENTS,
    names: { of: 'webhook', queue: 'webhook-deliveries', jobField: 'deliveryId' },
    failedToRun: (id, err) => logger.error({ deliveryId: id, err }, 'webhook attempt failed to run'),
  });
  deps.onRetryScheduled = relay.retryScheduled;
  return relay;
}

/** One attempt, with tracing on a span continuing the trace its event was written in (docs/operations.md, "Tracing"). */
function tracedAttempt(deps: DeliveryDeps, deliveryId: string, attemptCount: number, traceparent: string | null | undefined) {
  return continueTrace(traceparent, 'webhook.deliver', { 'webhook.delivery_id': deliveryId, 'webhook.attempt': attemptCount + 1 }, () =>
    attemptDelivery(deps, deliveryId, attemptCount),
  );
}
