import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { SimulatedEventStore, DueEvent } from '../../platform/processor/simulated-event-store';
import { applyAcquirerEvent } from './acquirer-events';
import type { CheckoutDeps } from './checkout.service';

/** Tells the simulated acquirer's events when they fall due (docs/checkout.md, "Test cards"). */
export interface SimulatedNotifications {
  /** Asks for a pass once `delayMs` have passed (an event was just scheduled); never throws. */
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
export function simulatedRetryDelayMs(attempts: number): number {
  return Math.min(60_000, 1000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * The simulator's side of what Adyen's notification inbox does (acquirer-inbox.ts): each due event is applied by
 * `applyAcquirerEvent`, exactly as the same event from Adyen would be, so a simulated dispute or refund failure moves
 * the same lifecycles and books the same journals. An event applied twice (two instances, a crash before it was marked
 * told) changes nothing the second time. One that comes before what it follows (a dispute of a payment whose
 * completion has not committed yet) is tried again; one that does not fit what it names is set aside and logged.
 */
export function startSimulatedNotifications(options: SimulatedNotificationOptions): SimulatedNotifications {
  const { logger, intervalMs } = options;
  let draining: Promise<number> | null = null;
  let again = false;
  const timers = new Set<NodeJS.Timeout>();
  const drain = (): Promise<number> => {
    if (draining) {
      again = true;
      return draining;
    }
    draining = (async () => {
      let told = 0;
      do {
        again = false;
        const due = await options.store.claimDue(BATCH, LEASE_MS);
        for (const event of due) if (await tell(options, event)) told++;
        if (due.length > 0) again = true;
      } while (again);
      return told;
    })().finally(() => (draining = null));
    return draining;
  };
  const pass = () => void drain().catch((err: Error) => logger.warn({ err: err.message }, 'simulated acquirer: pass failed'));
  const sweep = setInterval(pass, intervalMs);
  sweep.unref();
  return {
    wakeIn(delayMs) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        pass();
      }, delayMs);
      timer.unref();
      timers.add(timer);
    },
    drain,
    async stop() {
      clearInterval(sweep);
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await draining?.catch(() => undefined);
    },
  };
}

async function tell({ em, store, checkout, logger }: SimulatedNotificationOptions, due: DueEvent): Promise<boolean> {
  const context = { simulatedEventId: due.id, event: due.event.kind, ...('step' in due.event ? { step: due.event.step } : {}) };
  try {
    const outcome = await applyAcquirerEvent(checkout, em(), due.event);
    if (outcome.effect === 'waiting') {
      await store.retryLater(due.id, simulatedRetryDelayMs(due.attempts));
      logger.info({ ...context, problem: outcome.problem }, 'simulated acquirer: the event waits for the one it follows');
      return false;
    }
    await store.told(due.id, outcome.effect);
    if (outcome.effect === 'flagged') logger.warn({ ...context, problem: outcome.problem }, 'simulated acquirer: the event does not fit what it names: nothing booked');
    else logger.info({ ...context, effect: outcome.effect }, 'simulated acquirer: event applied');
    return true;
  } catch (error) {
    await store.retryLater(due.id, simulatedRetryDelayMs(due.attempts)).catch(() => undefined);
    logger.warn({ ...context, attempts: due.attempts, err: (error as Error).message }, 'simulated acquirer: the event could not be applied: it will be tried again');
    return false;
  }
}
