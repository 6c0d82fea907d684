import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { backOffMs, eachInTurn, startOutbox } from '../../platform/outbox/outbox';
import { commitSignal } from '../../platform/outbox/wake-on-commit';
import type { AcquirerInbox, InboxEntry } from '../../platform/processor/acquirer-inbound';
import { applyAcquirerEvent } from './acquirer-events';
import type { CheckoutDeps } from './checkout.service';

/** Applies what the acquirer told after it was kept in its inbox (docs/acquirers.md, "Notifications"). */
export interface InboxDrain {
  /** Raises the drain's signal: an event was just kept (its statement committed), due in `dueInMs`; never throws. */
  wake(dueInMs?: number): void;
  /** One pass: applies every event due now; how many were settled. */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

export interface InboxDrainOptions {
  /** A fresh unit of work for each event. */
  em(): EntityManager;
  /** The acquirer's inbox (the port's: Adyen's notifications, the simulator's events). */
  store: AcquirerInbox;
  checkout: CheckoutDeps;
  logger: Logger;
  /** The sweep that finds events whose retry is due, and events another instance kept. */
  intervalMs: number;
}

const BATCH = 50;
/** An event claimed by an instance that died is claimed again after this. */
const LEASE_MS = 60_000;

/**
 * Every instance drains the acquirer's inbox, a use of the outbox engine (src/platform/outbox/outbox.ts): at start,
 * on a sweep and when an event was kept; events are claimed with a lease, so two instances never apply the same one
 * at once (Adyen's: a payment's items one at a time in the acquirer's order). Each is applied by `applyAcquirerEvent`,
 * whichever acquirer told it, so a simulated dispute moves the same lifecycles and books the same journals as Adyen's.
 * Exactly-once money comes from the moves the events make (conditional UPDATEs, journals booked against what is
 * already booked), so an event applied again after a crash changes nothing. One that fails to apply is retried with
 * back-off; one that comes before the event it follows waits for it; one that does not fit what it names is flagged.
 * The schedules and the log lines are the acquirer's (its inbox's `policy`).
 */
export function startAcquirerInbox(options: InboxDrainOptions): InboxDrain {
  const { store, checkout, logger } = options;
  const { policy } = store;
  const kept = commitSignal();
  const outbox = startOutbox<InboxEntry>({
    passFailed: policy.log.passFailed,
    signal: kept,
    sweepMs: options.intervalMs,
    logger,
    batch: () => BATCH,
    claim: (limit) => store.claimDue(limit, LEASE_MS),
    handle: eachInTurn<InboxEntry>({
      attempt: (entry) => apply(options, entry),
      retry: policy.retry,
      retryLater: (entry, error, delayMs) => store.retryLater(entry.id, delayMs, error),
      observe: (entry, outcome) => {
        if (entry.metricEvent) checkout.metrics.acquirerNotifications.inc({ event: entry.metricEvent, outcome });
      },
      failed(entry, err) {
        const alarm = policy.alarmAfterAttempts !== null && entry.attempts >= policy.alarmAfterAttempts;
        const log = alarm ? logger.error.bind(logger) : logger.warn.bind(logger);
        log({ ...entry.logContext, attempts: entry.attempts, err }, policy.log.failed);
      },
    }),
    // An event applied lets the next of its payment go, and wakes what waited for it: claim again until none is due.
    handlingFreesRows: true,
  });
  return {
    // The event was kept by a statement of its own, committed already.
    wake: (dueInMs = 0) => kept.raise(dueInMs),
    drain: outbox.drain,
    stop: outbox.stop,
  };
}

/** Applies one event and records its outcome; throws when it could not be applied (retried on the policy's schedule). */
async function apply({ em, store, checkout, logger }: InboxDrainOptions, entry: InboxEntry): Promise<{ outcome: string; settled: boolean }> {
  const { policy } = store;
  const context = entry.logContext;
  const outcome = await applyAcquirerEvent(checkout, em(), entry.event);
  if (outcome.effect === 'flagged') {
    await store.flag(entry.id, outcome.problem);
    logger[policy.log.flagged.level]({ ...context, problem: outcome.problem }, policy.log.flagged.message);
    return { outcome: 'flagged', settled: true };
  }
  if (outcome.effect === 'waiting') {
    await store.wait(entry.id, outcome.problem, backOffMs(policy.waiting, entry.attempts));
    logger[policy.log.waiting.level]({ ...context, problem: outcome.problem }, policy.log.waiting.message);
    return { outcome: 'waiting', settled: policy.waiting.listed };
  }
  await store.told(entry.id, outcome.effect);
  logger.info({ ...context, effect: outcome.effect }, policy.log.applied);
  return { outcome: 'applied', settled: true };
}
