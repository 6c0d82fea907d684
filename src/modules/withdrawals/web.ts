export { PayoutAccountNumberResolver, PayoutAccountResolver } from './payout-account.resolver';
export { WithdrawalResolver } from './withdrawal.resolver';
export { WithdrawalObject } from './withdrawal.object';
