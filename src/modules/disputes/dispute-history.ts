import type { EntityManager } from '@mikro-orm/postgresql';
import { LedgerAccount, LedgerEntry } from '../ledger';
import { pageOf, validPageRequest, windowOf, type Page } from '../../shared/pagination';
import { Dispute } from './dispute.entity';

/** The ledger journals a dispute's moves book (src/modules/disputes/dispute.lifecycle.ts). */
export const DISPUTE_JOURNAL_KINDS = ['chargeback', 'chargeback_reversed', 'second_chargeback', 'dispute_won'] as const;

/** Disputes against payments of any shop of the seller, past or present, newest first. */
export async function sellerDisputes(em: EntityManager, sellerId: string, page?: number | null, limit?: number | null): Promise<Page<Dispute>> {
  const request = validPageRequest(page, limit);
  const [items, total] = await em.findAndCount(Dispute, { payment: { shop: { seller: sellerId } } }, { orderBy: { openedAt: 'desc', id: 'desc' }, ...windowOf(request) });
  return pageOf(request, items, total);
}

/** A dispute's lines on the seller's balance, oldest first (one dispute per payment, so the payment names them). */
export function disputeJournalLines(em: EntityManager, paymentId: string): Promise<LedgerEntry[]> {
  return em.find(LedgerEntry, { payment: paymentId, account: LedgerAccount.SELLER_BALANCE, kind: { $in: [...DISPUTE_JOURNAL_KINDS] } }, { orderBy: { id: 'asc' } });
}
