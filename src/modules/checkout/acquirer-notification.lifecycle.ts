import { defineLifecycle } from '../../platform/lifecycle/lifecycle';

/**
 * An acquirer's notification in the inbox (`adyen_notifications.status`), as the inbox's store writes it
 * (src/platform/processor/adyen/notification-store.ts): stored before the acquirer gets its answer, then applied
 * by the inbox job (src/modules/checkout/acquirer-inbox.ts), retried or dismissed by an admin
 * (acquirer-notification.resolver.ts, which writes the audit entry).
 */
export const ACQUIRER_NOTIFICATION_LIFECYCLE = defineLifecycle({
  name: 'acquirer_notification',
  title: 'Acquirer notification (the inbox)',
  table: 'adyen_notifications',
  column: 'status',
  initial: 'received',
  states: {
    received: { meaning: 'stored (once per reference, event and success) and due to be applied' },
    waiting: { meaning: 'came before an event it follows: tried again when another item of its payment is applied, and on a slow schedule' },
    applied: { meaning: 'done: what it tells moved (reconciliation reads only these)', final: true },
    flagged: { meaning: 'did not match what it names: no money moved' },
    rejected: { meaning: 'could not be read: stored as it came, never applied (a row may start here)' },
    dismissed: { meaning: 'an admin looked at it and closed it', final: true },
  },
  moves: {
    apply: { from: ['received', 'waiting'], to: 'applied', on: 'the inbox job applied it (what waits on its payment is due at once)' },
    flag: { from: ['received', 'waiting'], to: 'flagged', on: 'the inbox job found it does not match what it names' },
    wait: { from: ['received', 'waiting'], to: 'waiting', on: 'the inbox job found it comes before an event it follows (next_attempt_at moves on)' },
    retry: { from: ['flagged', 'waiting'], to: 'received', on: 'an admin had it applied again, with a reason (attempts start over)' },
    dismiss: { from: ['flagged', 'waiting', 'rejected'], to: 'dismissed', on: 'an admin dismissed it, with a reason' },
  },
  stays: {
    'outcome unknown': { in: ['received'], then: 'applying it failed: it stays received and is tried again later (last_error, next_attempt_at)' },
  },
});
