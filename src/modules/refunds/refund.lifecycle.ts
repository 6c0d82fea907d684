import { defineLifecycle } from '../../platform/lifecycle/lifecycle';

/** A refund request (any amount up to what remains of the payment): reviewed by admins, carried out by the refund jobs (src/modules/refunds/). */
export const REFUND_LIFECYCLE = defineLifecycle({
  name: 'refund',
  title: 'Refund',
  table: 'refunds',
  column: 'status',
  initial: 'requested',
  states: {
    requested: { meaning: 'support recorded the seller\'s request (audit: refund.requested)' },
    approved: { meaning: 'approved; waiting for a refund job' },
    rejected: { meaning: 'an admin said no, with a reason', final: true },
    processing: { meaning: 'a job claimed it and calls the acquirer' },
    refunded: { meaning: 'the acquirer refunded it; the seller is debited its amount (the payment is refunded once its refunds add up to it)', decided: true },
    reversed: { meaning: 'the acquirer reversed the refund (REFUNDED_REVERSED): the money came back to the seller', final: true },
    failed: { meaning: 'the acquirer refused it (or a chargeback stood): nothing moved; or the card scheme rejected it after it was carried out: the seller is credited back', final: true },
  },
  moves: {
    approve: {
      from: ['requested'], to: 'approved', on: 'an admin other than the requester approved it',
      audit: 'refund.approved', notice: 'refund-approved', notByRequester: true, verb: 'approved',
    },
    approveAutomatically: {
      from: ['requested'], to: 'approved',
      on: 'a live test payment completed: its refund is recorded and approved at once (no four eyes: the money goes back to the card it came from)',
      audit: 'refund.approved_automatically', verb: 'approved',
    },
    reject: { from: ['requested'], to: 'rejected', on: 'an admin rejected it', audit: 'refund.rejected', notice: 'refund-rejected', verb: 'rejected' },
    claim: { from: ['approved'], to: 'processing', on: 'a refund job took it (its attempt is counted)' },
    reclaim: { from: ['processing'], to: 'processing', on: 'a job found a claim older than REFUND_PROCESSING_TIMEOUT_MS, unacknowledged' },
    succeed: {
      from: ['processing'], to: 'refunded',
      on: 'the acquirer refunded it (live answer, look-up or notification); the payment moves with the refund completing its amount (payment: refund)',
      journal: 'refund', event: 'payment.refunded', receipt: 'refund-notice',
    },
    succeedTest: {
      from: ['processing'], to: 'refunded',
      on: 'the acquirer refunded a live test (as succeed): its journal takes back exactly the fee-free credit, so the test nets to zero',
      journal: 'test_refund', event: 'payment.refunded', receipt: 'refund-notice',
    },
    fail: { from: ['processing'], to: 'failed', on: 'the acquirer refused it (live answer or look-up)', event: 'refund.failed', notice: 'refund-failed' },
    failAfterRefund: {
      from: ['refunded'], to: 'failed',
      on: 'the card scheme rejected it after the acquirer had carried it out (REFUND_FAILED after REFUND): the seller is credited back; a refunded payment moves with it (payment: reverseRefund) and may be refunded again',
      journal: 'refund_failed', event: 'refund.failed', notice: 'refund-failed',
    },
    requeue: { from: ['processing'], to: 'approved', on: 'a look-up found the acquirer never received it (sent again under the same key)' },
    reverse: {
      from: ['refunded'], to: 'reversed',
      on: 'the acquirer reversed it (REFUNDED_REVERSED): the seller is credited back; a refunded payment moves with it (payment: reverseRefund)',
      journal: 'refund_reversed',
    },
  },
  stays: {
    'outcome unknown': { in: ['processing'], then: 'stays processing; retried by the jobs, looked up by reconciliation, flagged after RECONCILE_GIVE_UP_MS' },
    acknowledged: { in: ['processing'], then: 'waits for its notification; never sent again' },
    'an event that comes before the one it follows': { in: ['requested', 'approved', 'processing'], then: 'a reversal, or an outcome for a refund not yet sent, waits for it' },
  },
});
