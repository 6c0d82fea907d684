import { defineLifecycle } from '../../platform/lifecycle/lifecycle';

/** One event's delivery to one shop (src/modules/webhooks/): attempts are claimed, answered, retried on a schedule. */
export const WEBHOOK_DELIVERY_LIFECYCLE = defineLifecycle({
  name: 'webhook_delivery',
  title: 'Webhook delivery',
  table: 'webhook_deliveries',
  column: 'status',
  initial: 'pending',
  states: {
    pending: { meaning: 'due at next_attempt_at (an attempt may be running under its lease)' },
    delivered: { meaning: 'the receiver answered 200' },
    failed: { meaning: 'the last attempt of the schedule failed' },
  },
  moves: {
    deliver: { from: ['pending'], to: 'delivered', on: 'the receiver answered 200' },
    retry: { from: ['pending'], to: 'pending', on: 'an attempt failed and the schedule has attempts left (next_attempt_at moves on)' },
    giveUp: { from: ['pending'], to: 'failed', on: 'the last attempt failed (a test delivery has one)' },
    resend: { from: ['failed', 'delivered'], to: 'pending', on: 'the seller or an admin re-sent it (audited for admins)' },
  },
  stays: {
    'outcome unknown': { in: ['pending'], then: 'a worker died mid-attempt: its lease runs out and another worker tries again' },
  },
});
