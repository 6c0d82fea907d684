import type { EntityManager } from '@mikro-orm/postgresql';
import { LedgerAccount, LedgerEntry } from '../ledger';
import { pageOf, validPageRequest, windowOf, type Page } from '../../shared/pagination';
import { Dispute } from './dispute.entity';

/** Disputes against payments of any shop of the seller, past or present, newest first. */
export async function sellerDisputes(em: EntityManager, sellerId: string, page?: number | null, limit?: number | null): Promise<Page<Dispute>> {
  const request = validPageRequest(page, limit);
  const [items, total] = await em.findAndCount(Dispute, { payment: { shop: { seller: sellerId } } }, { orderBy: { openedAt: 'desc', id: 'desc' }, ...windowOf(request) });
  return pageOf(request, items, total);
}

/** A dispute's lines on the seller's balance, oldest first. */
export function disputeJournalLines(em: EntityManager, disputeId: string): Promise<LedgerEntry[]> {
  return em.find(LedgerEntry, { disputeId, account: LedgerAccount.SELLER_BALANCE }, { orderBy: { id: 'asc' } });
}
