import type { Withdrawal } from './withdrawal.entity';

/** The `withdrawal` object of withdrawal webhook events (withdrawal.paid, withdrawal.rejected); docs/reference.md, "Webhooks". */
export function withdrawalPayload(withdrawal: Withdrawal) {
  return {
    id: withdrawal.id,
    amount: withdrawal.amount,
    status: withdrawal.status,
    rejection_reason: withdrawal.rejectionReason,
    payout_reference: withdrawal.payoutReference,
    created_at: withdrawal.createdAt.toISOString(),
    paid_at: withdrawal.paidAt?.toISOString() ?? null,
  };
}
