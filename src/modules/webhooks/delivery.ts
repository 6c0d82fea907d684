import type { MikroORM } from '@mikro-orm/postgresql';
import type { SecretBox } from '../identity';
import type { Metrics } from '../../platform/observability/metrics';
import type { Logger } from '../../shared/logger';
import { unavailableError } from '../../platform/db/unavailable';
import { applyMove } from '../../platform/lifecycle/apply-move';
import { WEBHOOK_DELIVERY_LIFECYCLE } from './webhook-delivery.lifecycle';
import { outcomeAfterAttempt, type RetryPolicy } from './retry-schedule';
import { claimDeliveryAttempt, deliveryTarget } from './outbox-store';
import { deliveryHeaders } from './signing';
import { WebhookAttempt } from './webhook-attempt.entity';
import { WebhookDelivery, WebhookDeliveryStatus } from './webhook-delivery.entity';
import type { WebhookAnswer, WebhookSender } from './webhook-sender';

export interface DeliveryDeps {
  orm: MikroORM;
  sender: WebhookSender;
  policy: RetryPolicy;
  /** How long a claimed attempt belongs to its worker: the time-out plus a margin. Past it, the worker counts as lost. */
  leaseMs: number;
  logger: Logger;
  /** Opens the shops' webhook secrets, stored sealed with ACCOUNT_SECRETS_KEY. */
  secrets: SecretBox;
  /** Delivery outcomes and completion-to-delivery lag, when this process exposes /metrics. */
  metrics?: Metrics;
  /** Told when a retry is scheduled, so the queue can carry it as a delayed job (best effort: the relay is the backstop). */
  onRetryScheduled?(deliveryId: string, attemptCount: number, at: Date): void;
}

/** `skipped`: this attempt was not ours to make (already made, taken by another worker, not due, or no longer pending). */
export type AttemptResult = 'skipped' | `${WebhookDeliveryStatus}`;

/** What a claimed attempt needs, read in the claiming transaction. */
interface ClaimedAttempt {
  attemptId: string;
  number: number;
  inSchedule: number;
  url: string | null;
  secret: string;
  eventId: string;
  body: string;
  test: boolean;
}

/**
 * Makes attempt number `attemptCount + 1` of a delivery, once: the claim is a conditional UPDATE on
 * the attempt count and an expired-or-absent lease, so a duplicate job, a second relay or a retried
 * job can never send the same attempt twice. The attempt row is written before the request goes out
 * (so a worker that dies leaves a trace), and the outcome and the next `next_attempt_at` after it.
 */
export async function attemptDelivery(deps: DeliveryDeps, deliveryId: string, attemptCount: number): Promise<AttemptResult> {
  const leaseEndsAt = Date.now() + deps.leaseMs;
  const claimed = await claim(deps, deliveryId, attemptCount);
  if (!claimed) return 'skipped';

  const answer: WebhookAnswer = claimed.url
    ? await deps.sender.send({
        url: claimed.url,
        body: claimed.body,
        headers: deliveryHeaders(claimed.secret, claimed.eventId, claimed.body, { test: claimed.test }),
      })
    : { status: null, error: 'the shop has no webhook URL', durationMs: 0, responseExcerpt: null, retryAfter: null };

  const outcome = outcomeAfterAttempt(deps.policy, claimed.inSchedule, answer, claimed.test || !claimed.url);
  await whileLeaseHolds(leaseEndsAt, () => deps.orm.em.fork().transactional(async (tx) => {
    await tx.nativeUpdate(WebhookAttempt, { id: claimed.attemptId }, {
      durationMs: answer.durationMs,
      httpStatus: answer.status,
      error: answer.error,
      responseExcerpt: answer.responseExcerpt,
    });
    // Only while the attempt is still the latest: a worker whose lease ran out records its answer, nothing more.
    await applyMove(tx, WEBHOOK_DELIVERY_LIFECYCLE, WebhookDelivery, outcome.move, {
      id: deliveryId,
      where: { attemptCount: claimed.number },
      changes: {
        nextAttemptAt: outcome.move === 'retry' ? outcome.nextAttemptAt : null,
        deliveredAt: outcome.move === 'deliver' ? outcome.at : null,
        failedAt: outcome.move === 'giveUp' ? outcome.at : null,
        lockedUntil: null,
      },
      readBack: false,
    });
  }));
  deps.logger.info(
    { deliveryId, eventId: claimed.eventId, attempt: claimed.number, httpStatus: answer.status, error: answer.error, ms: answer.durationMs, outcome: outcome.status },
    'webhook attempt',
  );
  observe(deps.metrics, outcome.status, claimed);
  if (outcome.move === 'retry') deps.onRetryScheduled?.(deliveryId, claimed.number, outcome.nextAttemptAt);
  return outcome.status;
}

const OUTCOME_RETRY_MS = 250;

/**
 * Writes an attempt's outcome, again and again while the database is away (a failover takes seconds) and the
 * attempt's lease holds. An outcome never written is an attempt made again once the lease runs out: the seller
 * would get the webhook twice. Writing it twice is harmless (the move is conditional on the attempt count).
 */
async function whileLeaseHolds(leaseEndsAt: number, write: () => Promise<void>): Promise<void> {
  for (;;) {
    try {
      return await write();
    } catch (error) {
      if (!unavailableError(error) || Date.now() + OUTCOME_RETRY_MS >= leaseEndsAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, OUTCOME_RETRY_MS));
    }
  }
}

/** `retry_scheduled` rather than `pending`; lag is measured from the event's own timestamp (its commit). */
function observe(metrics: Metrics | undefined, status: string, claimed: ClaimedAttempt): void {
  if (!metrics) return;
  metrics.webhookDeliveries.inc({ outcome: status === WebhookDeliveryStatus.PENDING ? 'retry_scheduled' : status });
  if (status !== WebhookDeliveryStatus.DELIVERED || claimed.test) return;
  const createdAt = Date.parse(JSON.parse(claimed.body).timestamp);
  if (Number.isFinite(createdAt)) metrics.webhookLag.observe((Date.now() - createdAt) / 1000);
}

async function claim(deps: DeliveryDeps, deliveryId: string, attemptCount: number): Promise<ClaimedAttempt | null> {
  return deps.orm.em.fork().transactional(async (tx) => {
    const taken = await claimDeliveryAttempt(tx, deliveryId, attemptCount, deps.leaseMs);
    if (!taken) return null;
    const number = taken.attemptCount;
    // An earlier attempt without outcome was cut short: its worker died or lost its lease.
    await tx.nativeUpdate(
      WebhookAttempt,
      { delivery: deliveryId, number: { $lt: number }, durationMs: null, httpStatus: null, error: null },
      { error: 'worker lost: no outcome was recorded' },
    );
    // What the request needs, in one plain read (outbox-store.ts).
    const target = await deliveryTarget(tx, deliveryId);
    const attempt = tx.create(WebhookAttempt, { delivery: tx.getReference(WebhookDelivery, deliveryId), number, url: target.url, startedAt: new Date() });
    await tx.flush();
    return {
      attemptId: attempt.id,
      number,
      inSchedule: number - taken.scheduleStart,
      url: target.url,
      secret: deps.secrets.open(target.secret),
      eventId: target.eventId,
      body: target.body,
      test: target.test,
    };
  });
}
