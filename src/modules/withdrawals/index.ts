// Files that load no other module come first: a cycle back into this index finds them loaded
export { eachWithdrawalExportPage, WITHDRAWAL_EXPORT_COLUMNS } from './withdrawal-export';

// Files that load other modules
export { sampleWithdrawalPayload } from './withdrawal-payload';
export { withdrawalTotals } from './withdrawal.service';
export { PayoutAccountNumberResolver, PayoutAccountResolver } from './payout-account.resolver';
export { WithdrawalResolver } from './withdrawal.resolver';

// Types
export type { Withdrawal } from './withdrawal.entity';
export type { WithdrawalsContext } from './withdrawals-context';
