export { LedgerAccount, LedgerEntry } from './ledger-entry.entity';
export { LedgerEntryObject } from './ledger-entry.object';
export { balanceFigures } from './balance-checkpoints';
export { eachBalanceLinePage, eachStatementLinePage, monthlyStatement, statementMonthBounds } from './balance-lines';
export { paymentFee } from './fee';
export { checkLedger } from './ledger-invariants';
export { completionJournalPart } from './completion-journal-store';
export { selectSellerNetByPayment as sellerNetByPayment } from './ledger-store';
export { watchLedger } from './ledger-watch';
export {
  bookDisputePosition,
  bookLiveTestRefund,
  bookPayout,
  bookRefund,
  bookRefundFailure,
  bookRefundReversal,
  bookWithdrawalHold,
  bookWithdrawalRelease,
  sellerBalance,
} from './ledger.service';
export { writeSignedStatement } from './signed-statement';
export { loadStatementKeys, requireStatementKeyOutsideLocal } from './statement-keys';
export { statementKeysRouter } from './statement-keys-page';
export { BalanceLinesResolver, BalanceStatementResolver } from './balance-lines.resolver';
export { Balance, BalanceResolver, LedgerEntryResolver } from './balance.resolver';

// Types
export type { BalanceFigures } from './balance-checkpoints';
export type { BalanceSummary } from './balance-summary';
export type { BalanceLine } from './balance-lines';
export type { StatementKeys, StatementSigner } from './statement-keys';
export type { LedgerContext } from './ledger-context';
