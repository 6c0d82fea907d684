export { LedgerAccount, LedgerEntry } from './ledger-entry.entity';
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

// Types
export type { BalanceFigures } from './balance-checkpoints';
export type { BalanceSummary } from './balance-summary';
export type { BalanceLine } from './balance-lines';
export type { StatementKeys, StatementSigner } from './statement-keys';
export type { LedgerContext } from './ledger-context';
