import { defineLifecycle, type StateSpec } from '../../platform/lifecycle/lifecycle';

/** Where the hosted checkout of a pending payment stands (the `checkout_stage` column). */
export const CHECKOUT_STAGES = {
  card_required: { meaning: 'the page waits for a card' },
  processing: { meaning: 'the card (or 3-D Secure answer) is at the acquirer' },
  authentication_required: { meaning: 'the customer must answer 3-D Secure' },
  finished: { meaning: 'the payment left pending', final: true },
} as const satisfies Record<string, StateSpec>;

/**
 * A payment: its `status` (the spec's four) and, while it is `pending`, its checkout `stage`. Applied by
 * src/modules/checkout/checkout.service.ts (card, 3-D Secure, answers), src/modules/payments/payment-expiry.ts (expiry),
 * src/modules/checkout/reconciliation-jobs.ts (look-ups) and src/modules/refunds/refund.service.ts (refund).
 */
export const PAYMENT_LIFECYCLE = defineLifecycle({
  name: 'payment',
  title: 'Payment (status, and the checkout stage while pending)',
  table: 'payments',
  column: 'status',
  initial: 'pending',
  states: {
    pending: { meaning: 'created; the customer has not paid yet (see the stage)' },
    completed: { meaning: 'the card was charged; the seller is credited' },
    failed: { meaning: 'declined, never received, refused for the shop, or expired', final: true },
    refunded: { meaning: 'its refunds add up to its whole amount: all of it went back to the customer', decided: true },
  },
  side: { column: 'checkout_stage', property: 'checkoutStage', initial: 'card_required', states: CHECKOUT_STAGES },
  moves: {
    submitCard: {
      from: ['pending'], to: 'pending', stage: { from: ['card_required'], to: 'processing' },
      on: 'the customer submitted a card before the expiry (claimed before the acquirer is called: once)',
    },
    challenge: {
      from: ['pending'], to: 'pending', stage: { from: ['processing'], to: 'authentication_required' },
      on: 'the acquirer asked for 3-D Secure',
    },
    answerChallenge: {
      from: ['pending'], to: 'pending', stage: { from: ['authentication_required'], to: 'processing' },
      on: 'the customer answered 3-D Secure before the expiry (claimed: once)',
    },
    complete: {
      from: ['pending'], to: 'completed', stage: { from: ['processing'], to: 'finished' },
      on: 'the acquirer approved (live answer, or a look-up found it charged)',
      journal: 'payment', event: 'payment.completed', receipt: 'receipt',
    },
    completeTest: {
      from: ['pending'], to: 'completed', stage: { from: ['processing'], to: 'finished' },
      on: 'the acquirer approved a live test (as complete); its journal has no fee, and the refund jobs refund it at once (refund: approveAutomatically)',
      journal: 'test_payment', event: 'payment.completed', receipt: 'receipt',
    },
    fail: {
      from: ['pending'], to: 'failed', stage: { from: ['processing'], to: 'finished' },
      on: 'the acquirer declined (live or looked up), a look-up found the request never received, or the shop stopped taking payments meanwhile',
      event: 'payment.failed',
    },
    expire: {
      from: ['pending'], to: 'failed', stage: { from: ['card_required', 'authentication_required'], to: 'finished' },
      on: 'PAYMENT_EXPIRES_AFTER_MS passed with no card at the acquirer',
      event: 'payment.failed',
    },
    refund: {
      from: ['completed'], to: 'refunded',
      on: 'the refund that completes its amount was carried out (refund: succeed, in the same transaction, books the journal and the event)',
    },
    reverseRefund: {
      from: ['refunded'], to: 'completed',
      on: 'the acquirer reversed one of its refunds, or the card scheme rejected one after it was carried out (refund: reverse, failAfterRefund, in the same transaction, credit the seller back): it may be refunded again',
    },
  },
  stays: {
    'outcome unknown': {
      in: ['pending'],
      then: 'stays processing; reconciliation asks the acquirer after RECONCILE_AFTER_MS, flags it for admins after RECONCILE_GIVE_UP_MS',
    },
  },
});
