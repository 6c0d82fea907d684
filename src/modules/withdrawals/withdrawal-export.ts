import type { EntityManager } from '@mikro-orm/postgresql';
import { dollars, isoTime, type CsvCell } from '../../shared/csv';
import { EXPORT_PAGE_ROWS } from '../../shared/limits';

export const WITHDRAWAL_EXPORT_COLUMNS = ['id', 'requested_at', 'amount', 'status', 'reviewed_at', 'paid_at', 'payout_reference', 'rejection_reason', 'shop_id'] as const;

interface WithdrawalRow {
  id: string;
  created_at: Date | string;
  amount: string;
  status: string;
  reviewed_at: Date | string | null;
  paid_at: Date | string | null;
  payout_reference: string | null;
  rejection_reason: string | null;
  shop_id: string;
}

/** Every withdrawal of the seller, newest first, as CSV rows (amounts in dollars), one keyset page at a time. */
export async function eachWithdrawalExportPage(em: EntityManager, sellerId: string, write: (rows: CsvCell[][]) => Promise<void>): Promise<void> {
  let cursor: [Date | string, string] | null = null;
  for (;;) {
    const rows: WithdrawalRow[] = await em.execute<WithdrawalRow[]>(
      `select "id", "created_at", "amount", "status", "reviewed_at", "paid_at", "payout_reference", "rejection_reason", "shop_id"
         from "withdrawals" where "seller_id" = ?${cursor ? ' and ("created_at", "id") < (?, ?)' : ''}
        order by "created_at" desc, "id" desc limit ${EXPORT_PAGE_ROWS}`,
      cursor ? [sellerId, cursor[0], cursor[1]] : [sellerId],
    );
    if (rows.length === 0) return;
    await write(rows.map((w) => [w.id, isoTime(w.created_at), dollars(w.amount), w.status, isoTime(w.reviewed_at), isoTime(w.paid_at), w.payout_reference, w.rejection_reason, w.shop_id]));
    const last = rows[rows.length - 1];
    cursor = [last.created_at, last.id];
    if (rows.length < EXPORT_PAGE_ROWS) return;
  }
}
