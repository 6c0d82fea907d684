export { eachWithdrawalExportPage, WITHDRAWAL_EXPORT_COLUMNS } from './withdrawal-export';
export { sampleWithdrawalPayload } from './withdrawal-payload';
export { withdrawalTotals } from './withdrawal.service';

// Types
export type { Withdrawal } from './withdrawal.entity';
export type { WithdrawalsContext } from './withdrawals-context';
