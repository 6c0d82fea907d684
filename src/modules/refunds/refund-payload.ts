import type { Refund } from './refund.entity';

/** The `refund` object of refund webhook events (payment.refunded, refund.failed); docs/reference.md, "Webhooks". */
export function refundPayload(refund: Pick<Refund, 'id' | 'amount' | 'status' | 'failureReason' | 'createdAt' | 'refundedAt'>) {
  return {
    id: refund.id,
    amount: refund.amount,
    status: refund.status,
    failure_reason: refund.failureReason,
    created_at: refund.createdAt.toISOString(),
    refunded_at: refund.refundedAt?.toISOString() ?? null,
  };
}
