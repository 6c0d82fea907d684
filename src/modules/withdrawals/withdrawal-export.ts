import type { EntityManager } from '@mikro-orm/postgresql';
import { dollars, isoTime, type CsvCell } from '../../shared/csv';
import { withdrawalExportPages } from './withdrawal-store';

export const WITHDRAWAL_EXPORT_COLUMNS = ['id', 'requested_at', 'amount', 'status', 'reviewed_at', 'paid_at', 'payout_reference', 'rejection_reason', 'shop_id'] as const;

/** Every withdrawal of the seller, newest first, as CSV rows (amounts in dollars), one keyset page at a time. */
export async function eachWithdrawalExportPage(em: EntityManager, sellerId: string, write: (rows: CsvCell[][]) => Promise<void>): Promise<void> {
  for await (const rows of withdrawalExportPages(em, sellerId)) {
    await write(rows.map((w) => [w.id, isoTime(w.createdAt), dollars(w.amount), w.status, isoTime(w.reviewedAt), isoTime(w.paidAt), w.payoutReference, w.rejectionReason, w.shopId]));
  }
}
