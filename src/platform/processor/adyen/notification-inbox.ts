import type { AcquirerInbox, InboxPolicy } from '../acquirer-inbound';
import type { InboxItem, NotificationStore } from './notification-store';
import { eventOf, metricEvent } from './notifications';

/** An item that failed to apply is retried from one second, doubling, to at most ten minutes. */
const RETRY = { firstMs: 1000, maxMs: 10 * 60_000 };

const POLICY: InboxPolicy = {
  retry: RETRY,
  /**
   * A waiting item is woken as soon as another item of its payment is applied; besides, it is tried again on this
   * slower schedule (a refund job or an admin may make it fit), from 10 seconds up to an hour, and listed for admins.
   */
  waiting: { firstMs: 10_000, maxMs: 60 * 60_000, listed: true },
  /** Past this many attempts an item that keeps failing is logged as an error for the operator, and still retried. */
  alarmAfterAttempts: 5,
  log: {
    passFailed: 'acquirer notification pass failed',
    applied: 'adyen notification applied',
    flagged: { level: 'error', message: 'adyen notification does not match what it names: nothing booked, flagged for admins' },
    waiting: { level: 'warn', message: 'adyen notification came before an event it follows: it waits for it' },
    failed: 'adyen notification could not be applied: it will be tried again',
  },
};

const logContextOf = (item: InboxItem) => ({ notificationId: item.id, eventCode: item.eventCode, pspReference: item.pspReference, merchantReference: item.merchantReference, success: item.success });

/**
 * Adyen's notifications (`adyen_notifications`) as the port's inbox: each claimed item read into the port's event
 * (notifications.ts, eventOf) and counted by its event code; an item that waits is listed for admins.
 */
export function notificationInbox(store: NotificationStore): AcquirerInbox {
  return {
    policy: POLICY,
    async claimDue(limit, leaseMs) {
      const items = await store.claimDue(limit, leaseMs);
      return items.map((item) => ({ id: item.id, attempts: item.attempts, event: eventOf(item), logContext: logContextOf(item), metricEvent: metricEvent(item.eventCode) }));
    },
    told: (id) => store.settle({ id }, { move: 'apply' }),
    flag: (id, problem) => store.settle({ id }, { move: 'flag', problem }),
    wait: (id, problem, delayMs) => store.settle({ id }, { move: 'wait', problem, retryInMs: delayMs }),
    retryLater: (id, delayMs, error = '') => store.retryLater(id, error, delayMs),
    flagged: (limit) => store.flagged(limit),
    reopen: (id) => store.reopen(id),
    dismiss: (id) => store.dismiss(id),
  };
}
