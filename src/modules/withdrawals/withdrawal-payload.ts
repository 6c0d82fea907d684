import { randomBase62 } from '../../shared/random-id';
import { WithdrawalStatus, type Withdrawal } from './withdrawal.entity';

/** The `withdrawal` object of withdrawal webhook events (withdrawal.paid, withdrawal.rejected); docs/reference.md, "Webhooks". */
export function withdrawalPayload(withdrawal: Pick<Withdrawal, 'id' | 'amount' | 'status' | 'rejectionReason' | 'payoutReference' | 'createdAt' | 'paidAt'>) {
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

/** A test event's withdrawal, asked for `at`: paid, or rejected by finance. It does not exist (`wd_TEST…`). */
export function sampleWithdrawalPayload(at: Date, rejected: boolean) {
  return withdrawalPayload({
    id: `wd_TEST${randomBase62(20)}`,
    amount: 10_000,
    status: rejected ? WithdrawalStatus.REJECTED : WithdrawalStatus.PAID,
    rejectionReason: rejected ? 'Rejected by finance (test)' : null,
    payoutReference: rejected ? null : 'TEST-PAYOUT',
    createdAt: at,
    paidAt: rejected ? null : at,
  });
}
