import { defineLifecycle } from '../../platform/lifecycle/lifecycle';

/** A seller's withdrawal: the amount is held from the request (src/modules/withdrawals/). */
export const WITHDRAWAL_LIFECYCLE = defineLifecycle({
  name: 'withdrawal',
  title: 'Withdrawal',
  table: 'withdrawals',
  column: 'status',
  initial: 'requested',
  states: {
    requested: { meaning: 'asked for; the amount is held (journal: withdrawal hold)' },
    approved: { meaning: 'approved; waiting for the bank transfer' },
    rejected: { meaning: 'refused; the hold was released', final: true },
    paid: { meaning: 'the bank transfer went out', final: true },
  },
  moves: {
    approve: { from: ['requested'], to: 'approved', on: 'an admin other than the requester approved it', audit: 'withdrawal.approved', notByRequester: true, verb: 'approved' },
    reject: {
      from: ['requested', 'approved'], to: 'rejected', on: 'an admin rejected it, with a reason',
      journal: 'withdrawal release', audit: 'withdrawal.rejected', event: 'withdrawal.rejected', verb: 'rejected',
    },
    pay: { from: ['approved'], to: 'paid', on: 'an admin recorded the bank transfer reference', journal: 'payout', audit: 'withdrawal.paid', event: 'withdrawal.paid', verb: 'marked paid' },
  },
});
