import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Metrics } from '../../platform/observability/metrics';
import { backOffMs, eachInTurn, startOutbox } from '../../platform/outbox/outbox';
import { commitSignal } from '../../platform/outbox/wake-on-commit';
import { eventOf, metricEvent } from '../../platform/processor/adyen/notifications';
import type { InboxItem, NotificationStore } from '../../platform/processor/adyen/notification-store';
import { applyAcquirerEvent } from './acquirer-events';
import type { CheckoutDeps } from './checkout.service';

/** Applies the acquirer's notifications after they were accepted (docs/acquirers.md, "Notifications"). */
export interface AcquirerInbox {
  /** Raises the inbox's signal: an item was just accepted (its statement committed); never throws. */
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
/** Past this many attempts an item that keeps failing is logged as an error for the operator, and still retried. */
const ATTEMPTS_BEFORE_ALARM = 5;

/** An item that failed to apply is retried from one second, doubling, to at most ten minutes. */
const RETRY = { firstMs: 1000, maxMs: 10 * 60_000 };
/**
 * A waiting item is woken as soon as another item of its payment is applied; besides, it is tried again on this
 * slower schedule (a refund job or an admin may make it fit), from 10 seconds up to an hour.
 */
const WAITING = { firstMs: 10_000, maxMs: 60 * 60_000 };

/**
 * Every instance drains the inbox, a use of the outbox engine (src/platform/outbox/outbox.ts): at start, on a sweep
 * and when an item was accepted; items are claimed with FOR UPDATE SKIP LOCKED and a lease, so two instances never
 * apply the same item at once, and a payment's items one at a time in the acquirer's order
 * (NotificationStore.claimDue). Exactly-once money comes from the moves the events make (conditional UPDATEs,
 * journals booked against what is already booked), so an item applied again after a crash changes nothing. An item
 * that fails to apply is retried with back-off, holding back its payment's later items; one that comes before the
 * event it follows waits for it; one that does not fit what it names is flagged.
 */
export function startAcquirerInbox(options: AcquirerInboxOptions): AcquirerInbox {
  const { store, metrics, logger } = options;
  const accepted = commitSignal();
  const outbox = startOutbox<InboxItem>({
    passFailed: 'acquirer notification pass failed',
    signal: accepted,
    sweepMs: options.intervalMs,
    logger,
    batch: () => BATCH,
    claim: (limit) => store.claimDue(limit, LEASE_MS),
    handle: eachInTurn<InboxItem>({
      attempt: (item) => applyItem(options, item),
      retry: RETRY,
      retryLater: (item, error, delayMs) => store.retryLater(item.id, error, delayMs),
      observe: (item, outcome) => metrics.acquirerNotifications.inc({ event: metricEvent(item.eventCode), outcome }),
      failed(item, err) {
        const log = item.attempts >= ATTEMPTS_BEFORE_ALARM ? logger.error.bind(logger) : logger.warn.bind(logger);
        log({ ...contextOf(item), attempts: item.attempts, err }, 'adyen notification could not be applied: it will be tried again');
      },
    }),
    // An item applied lets the next of its payment go, and wakes what waited for it: claim again until none is due.
    handlingFreesRows: true,
  });
  return {
    // The item was accepted by a statement of its own, committed already.
    wake: () => accepted.raise(),
    drain: outbox.drain,
    stop: outbox.stop,
  };
}

const contextOf = (item: InboxItem) => ({ notificationId: item.id, eventCode: item.eventCode, pspReference: item.pspReference, merchantReference: item.merchantReference, success: item.success });

/** Applies one item and records its outcome; throws when it could not be applied (retried on RETRY's schedule). */
async function applyItem({ orm, store, checkout, logger }: AcquirerInboxOptions, item: InboxItem): Promise<{ outcome: string; settled: boolean }> {
  const context = contextOf(item);
  const outcome = await applyAcquirerEvent(checkout, orm.em.fork(), eventOf(item));
  if (outcome.effect === 'flagged') {
    await store.settle(item, { status: 'flagged', problem: outcome.problem });
    logger.error({ ...context, problem: outcome.problem }, 'adyen notification does not match what it names: nothing booked, flagged for admins');
    return { outcome: 'flagged', settled: true };
  }
  if (outcome.effect === 'waiting') {
    await store.settle(item, { status: 'waiting', problem: outcome.problem, retryInMs: backOffMs(WAITING, item.attempts) });
    logger.warn({ ...context, problem: outcome.problem }, 'adyen notification came before an event it follows: it waits for it');
    return { outcome: 'waiting', settled: true };
  }
  await store.settle(item, { status: 'applied' });
  logger.info({ ...context, effect: outcome.effect }, 'adyen notification applied');
  return { outcome: 'applied', settled: true };
}
