import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Metrics } from '../../platform/observability/metrics';
import { eventOf, metricEvent } from '../../platform/processor/adyen/notifications';
import type { InboxItem, NotificationStore } from '../../platform/processor/adyen/notification-store';
import { applyAcquirerEvent } from './acquirer-events';
import type { CheckoutDeps } from './checkout.service';

/** Applies the acquirer's notifications after they were accepted (docs/acquirers.md, "Notifications"). */
export interface AcquirerInbox {
  /** Asks for an early pass (an item was just accepted); never throws. */
  wake(): void;
  /** One pass: applies every item due now; how many were settled. */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

export interface AcquirerInboxOptions {
  orm: MikroORM;
  store: NotificationStore;
  checkout: CheckoutDeps;
  metrics: Metrics;
  logger: Logger;
  /** The sweep that finds items whose retry is due, and items another instance accepted. */
  intervalMs: number;
}

const BATCH = 50;
/** An item claimed by an instance that died is claimed again after this. */
const LEASE_MS = 60_000;
/** Retries back off from one second, doubling, to at most this. */
const MAX_RETRY_DELAY_MS = 10 * 60_000;
/** Past this many attempts an item that keeps failing is logged as an error for the operator, and still retried. */
const ATTEMPTS_BEFORE_ALARM = 5;

export function retryDelayMs(attempts: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, 1000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * A waiting item is woken as soon as another item of its payment is applied; besides, it is tried again on this
 * slower schedule (a refund job or an admin may make it fit), from 10 seconds up to an hour.
 */
export function waitingRetryDelayMs(attempts: number): number {
  return Math.min(60 * 60_000, 10_000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * Every instance drains the inbox on a timer and when woken; items are claimed with FOR UPDATE SKIP LOCKED and
 * a lease, so two instances never apply the same item at once, and a payment's items one at a time in the
 * acquirer's order (NotificationStore.claimDue). Exactly-once money comes from the moves the events make
 * (conditional UPDATEs, journals booked against what is already booked), so an item applied again after a crash
 * changes nothing. An item that fails to apply is retried with back-off, holding back its payment's later items;
 * one that comes before the event it follows waits for it; one that does not fit what it names is flagged.
 */
export function startAcquirerInbox(options: AcquirerInboxOptions): AcquirerInbox {
  const { logger, intervalMs } = options;
  let draining: Promise<number> | null = null;
  let again = false;
  const drain = (): Promise<number> => {
    if (draining) {
      again = true;
      return draining;
    }
    draining = (async () => {
      let settled = 0;
      do {
        again = false;
        const items = await options.store.claimDue(BATCH, LEASE_MS);
        for (const item of items) if (await applyItem(options, item)) settled++;
        // An item applied lets the next of its payment go, and wakes what waited for it: claim again until none is due.
        if (items.length > 0) again = true;
      } while (again);
      return settled;
    })().finally(() => (draining = null));
    return draining;
  };
  const pass = () => drain().catch((err: Error) => logger.warn({ err: err.message }, 'acquirer notification pass failed'));
  const timer = setInterval(pass, intervalMs);
  timer.unref();
  return {
    wake: () => void pass(),
    drain,
    async stop() {
      clearInterval(timer);
      await draining?.catch(() => undefined);
    },
  };
}

async function applyItem({ orm, store, checkout, metrics, logger }: AcquirerInboxOptions, item: InboxItem): Promise<boolean> {
  const context = { notificationId: item.id, eventCode: item.eventCode, pspReference: item.pspReference, merchantReference: item.merchantReference, success: item.success };
  try {
    const outcome = await applyAcquirerEvent(checkout, orm.em.fork(), eventOf(item));
    if (outcome.effect === 'flagged') {
      await store.settle(item, { status: 'flagged', problem: outcome.problem });
      metrics.acquirerNotifications.inc({ event: metricEvent(item.eventCode), outcome: 'flagged' });
      logger.error({ ...context, problem: outcome.problem }, 'adyen notification does not match what it names: nothing booked, flagged for admins');
    } else if (outcome.effect === 'waiting') {
      await store.settle(item, { status: 'waiting', problem: outcome.problem, retryInMs: waitingRetryDelayMs(item.attempts) });
      metrics.acquirerNotifications.inc({ event: metricEvent(item.eventCode), outcome: 'waiting' });
      logger.warn({ ...context, problem: outcome.problem }, 'adyen notification came before an event it follows: it waits for it');
    } else {
      await store.settle(item, { status: 'applied' });
      metrics.acquirerNotifications.inc({ event: metricEvent(item.eventCode), outcome: 'applied' });
      logger.info({ ...context, effect: outcome.effect }, 'adyen notification applied');
    }
    return true;
  } catch (error) {
    const message = (error as Error).message;
    await store.retryLater(item.id, message, retryDelayMs(item.attempts)).catch(() => undefined);
    metrics.acquirerNotifications.inc({ event: metricEvent(item.eventCode), outcome: 'retry' });
    const log = item.attempts >= ATTEMPTS_BEFORE_ALARM ? logger.error.bind(logger) : logger.warn.bind(logger);
    log({ ...context, attempts: item.attempts, err: message }, 'adyen notification could not be applied: it will be tried again');
    return false;
  }
}
