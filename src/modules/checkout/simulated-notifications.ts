import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { backOffMs, eachInTurn, startOutbox } from '../../platform/outbox/outbox';
import { commitSignal } from '../../platform/outbox/wake-on-commit';
import type { SimulatedEventStore, DueEvent } from '../../platform/processor/simulated-event-store';
import { applyAcquirerEvent } from './acquirer-events';
import type { CheckoutDeps } from './checkout.service';

/** Tells the simulated acquirer's events when they fall due (docs/checkout.md, "Test cards"). */
export interface SimulatedNotifications {
  /** Raises the job's signal: an event was just scheduled, due in `delayMs`; never throws. */
  wakeIn(delayMs: number): void;
  /** One pass: applies every event due now; how many were told. */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

export interface SimulatedNotificationOptions {
  /** A fresh unit of work for each event. */
  em(): EntityManager;
  store: SimulatedEventStore;
  checkout: CheckoutDeps;
  logger: Logger;
  /** The sweep that finds events another instance scheduled, or that were due while no instance ran. */
  intervalMs: number;
}

const BATCH = 50;
/** An event claimed by an instance that died is claimed again after this. */
const LEASE_MS = 60_000;
/** An event that failed to apply, or that waits for the one it follows, is tried again from one second, doubling, up to a minute. */
const RETRY = { firstMs: 1000, maxMs: 60_000 };

/**
 * The simulator's side of what Adyen's notification inbox does (acquirer-inbox.ts), a use of the outbox engine
 * (src/platform/outbox/outbox.ts): each due event is applied by `applyAcquirerEvent`, exactly as the same event from
 * Adyen would be, so a simulated dispute or refund failure moves the same lifecycles and books the same journals. An
 * event applied twice (two instances, a crash before it was marked told) changes nothing the second time. One that
 * comes before what it follows (a dispute of a payment whose completion has not committed yet) is tried again; one
 * that does not fit what it names is set aside and logged.
 */
export function startSimulatedNotifications(options: SimulatedNotificationOptions): SimulatedNotifications {
  const { store, logger } = options;
  const scheduled = commitSignal();
  const outbox = startOutbox<DueEvent>({
    passFailed: 'simulated acquirer: pass failed',
    signal: scheduled,
    sweepMs: options.intervalMs,
    logger,
    batch: () => BATCH,
    claim: (limit) => store.claimDue(limit, LEASE_MS),
    handle: eachInTurn<DueEvent>({
      attempt: (due) => tell(options, due),
      retry: RETRY,
      retryLater: (due, _error, delayMs) => store.retryLater(due.id, delayMs),
      failed: (due, err) => logger.warn({ ...contextOf(due), attempts: due.attempts, err }, 'simulated acquirer: the event could not be applied: it will be tried again'),
    }),
    // An event applied may let one that waited for it go.
    handlingFreesRows: true,
  });
  return {
    // The event was scheduled by a statement of its own, committed already; it falls due after `delayMs`.
    wakeIn: (delayMs) => scheduled.raise(delayMs),
    drain: outbox.drain,
    stop: outbox.stop,
  };
}

const contextOf = (due: DueEvent) => ({ simulatedEventId: due.id, event: due.event.kind, ...('step' in due.event ? { step: due.event.step } : {}) });

/** Applies one event and marks it told, or due again when it waits for the one it follows; throws when it could not be applied. */
async function tell({ em, store, checkout, logger }: SimulatedNotificationOptions, due: DueEvent): Promise<{ outcome: string; settled: boolean }> {
  const context = contextOf(due);
  const outcome = await applyAcquirerEvent(checkout, em(), due.event);
  if (outcome.effect === 'waiting') {
    await store.retryLater(due.id, backOffMs(RETRY, due.attempts));
    logger.info({ ...context, problem: outcome.problem }, 'simulated acquirer: the event waits for the one it follows');
    return { outcome: 'waiting', settled: false };
  }
  await store.told(due.id, outcome.effect);
  if (outcome.effect === 'flagged') logger.warn({ ...context, problem: outcome.problem }, 'simulated acquirer: the event does not fit what it names: nothing booked');
  else logger.info({ ...context, effect: outcome.effect }, 'simulated acquirer: event applied');
  return { outcome: outcome.effect, settled: true };
}
