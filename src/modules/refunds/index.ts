export { refundableRemaining } from './refund-rules';
export { Refund, RefundStatus } from './refund.entity';
export { sampleRefundPayload } from './refund-payload';
export { startRefundJobs } from './refund-jobs';
export { refundQueueDepth, selectRefundsHeld as refundsHeld } from './refund-store';
export { flagRefundNeedingAttention, leaseStuckRefunds } from './stuck-refund-store';
export { reverseRefund, settleLookedUpRefund, settleNotifiedRefund } from './refund.service';

// Types
export type { RefundJobs } from './refund-jobs';
export type { DisputeReweigh, RefundExecutionDeps } from './refund.service';
export type { RefundsContext } from './refunds-context';
