import { defineLifecycle } from '../../lifecycle/lifecycle';

/**
 * An acquirer's notification in Adyen's inbox (`adyen_notifications.status`), moved by the inbox's store through
 * the move engine (notification-store.ts): stored before the acquirer gets its answer, then applied by the inbox
 * job (src/modules/checkout/acquirer-inbox.ts), retried or dismissed by an admin
 * (src/modules/checkout/acquirer-notification.resolver.ts, which writes the audit entry). It lives beside its
 * store, since the platform reads no module's file; the list of lifecycles (src/modules/lifecycles.ts) names it.
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
