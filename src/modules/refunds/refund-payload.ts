import { randomBase62 } from '../../shared/random-id';
import { RefundStatus, type Refund } from './refund.entity';

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

/** A test event's refund, asked for `at`: carried out, or refused by the acquirer (`failed`). It does not exist (`ref_TEST…`). */
export function sampleRefundPayload(at: Date, failed: boolean) {
  return refundPayload({
    id: `ref_TEST${randomBase62(20)}`,
    amount: 5000,
    status: failed ? RefundStatus.FAILED : RefundStatus.REFUNDED,
    failureReason: failed ? 'Refused by the card issuer (test)' : null,
    createdAt: at,
    refundedAt: failed ? null : at,
  });
}
