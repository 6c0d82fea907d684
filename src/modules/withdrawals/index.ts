export { eachWithdrawalExportPage, WITHDRAWAL_EXPORT_COLUMNS } from './withdrawal-export';
export { sampleWithdrawalPayload } from './withdrawal-payload';
export { withdrawalTotals } from './withdrawal.service';
export { PayoutAccountNumberResolver, PayoutAccountResolver } from './payout-account.resolver';
export { WithdrawalResolver } from './withdrawal.resolver';
export { WithdrawalObject } from './withdrawal.object';

// Types
export type { Withdrawal } from './withdrawal.entity';
export type { WithdrawalsContext } from './withdrawals-context';
