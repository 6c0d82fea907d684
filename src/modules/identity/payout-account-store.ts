import type { EntityManager } from '@mikro-orm/postgresql';
import { Seller } from './seller.entity';

/** A seller's payout account as stored: the number sealed, its last four kept apart for the masked form. */
export interface StoredPayoutAccountColumns {
  payoutAccountHolder: string;
  payoutAccountNumber: string;
  payoutAccountLast4: string;
}

/**
 * Replaces the seller's payout account, one UPDATE in the caller's transaction. The withdrawals module holds the rules
 * (what a valid account is, the sealing, the seller's notice) and calls this.
 */
export async function setSellerPayoutAccount(tx: EntityManager, sellerId: string, account: StoredPayoutAccountColumns): Promise<void> {
  await tx.nativeUpdate(Seller, { id: sellerId }, account);
}
