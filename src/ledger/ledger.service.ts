import type { EntityManager } from '@mikro-orm/postgresql';
import type { Payment } from '../payments/payment.entity';
import { prefixedId } from '../shared/random-id';
import type { Seller } from '../shops/seller.entity';
import { feeFor } from './fee';
import { LedgerAccount, LedgerEntry } from './ledger-entry.entity';

interface Posting {
  account: LedgerAccount;
  kind: string;
  amount: number;
  seller?: Seller;
}

/**
 * Writes one journal: postings that must sum to zero (the database checks it again at commit).
 * Zero postings are skipped: the ledger holds movements only.
 */
export function postJournal(tx: EntityManager, payment: Payment | null, postings: Posting[]): string {
  if (postings.reduce((sum, p) => sum + p.amount, 0) !== 0) throw new Error('journal does not balance');
  const journalId = prefixedId('jrn', 20);
  for (const p of postings.filter((posting) => posting.amount !== 0)) {
    tx.create(LedgerEntry, { journalId, account: p.account, kind: p.kind, amount: p.amount, seller: p.seller ?? null, payment });
  }
  return journalId;
}

/**
 * A completed payment: the customer's money reaches the seller's balance, and the 15% fee moves from
 * the seller's balance to our fee revenue. The seller sees one credit and one fee entry.
 */
export function bookCompletedPayment(tx: EntityManager, payment: Payment): void {
  const seller = payment.shop.seller;
  const fee = feeFor(payment.amount);
  postJournal(tx, payment, [
    { account: LedgerAccount.CUSTOMER_FUNDS, kind: 'payment', amount: -payment.amount },
    { account: LedgerAccount.SELLER_BALANCE, kind: 'payment', amount: payment.amount, seller },
    { account: LedgerAccount.SELLER_BALANCE, kind: 'fee', amount: -fee, seller },
    { account: LedgerAccount.FEE_REVENUE, kind: 'fee', amount: fee },
  ]);
}

/** A seller's balance: the sum of their entries, never a counter kept apart from them. */
export async function sellerBalance(em: EntityManager, sellerId: string): Promise<number> {
  const [row] = await em.execute<{ balance: string | null }[]>(
    `select coalesce(sum("amount"), 0) as balance from "ledger_entries" where "seller_id" = ? and "account" = 'seller_balance'`,
    [sellerId],
  );
  return Number(row.balance);
}
