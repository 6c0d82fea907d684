import type { Cents } from '../../shared/cents';
import type { BalanceFigures } from './balance-checkpoints';

/** A seller's balance figures with its withdrawals: what the console's Balance type shows. */
export interface BalanceSummary extends BalanceFigures {
  sellerId: string;
  pendingWithdrawals: Cents;
  paidOut: Cents;
  refundsHeld: Cents;
}
