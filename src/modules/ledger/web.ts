export { LedgerEntryObject } from './ledger-entry.object';
export { statementKeysRouter } from './statement-keys-page';
export { BalanceLinesResolver, BalanceStatementResolver } from './balance-lines.resolver';
export { Balance, BalanceResolver, LedgerEntryResolver } from './balance.resolver';
