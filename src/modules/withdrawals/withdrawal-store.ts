import type { EntityManager } from '@mikro-orm/postgresql';
import { timeOf } from '../../shared/csv';
import { EXPORT_PAGE_ROWS } from '../../shared/limits';

/** A withdrawal as the seller's CSV export reads it. */
export interface ExportedWithdrawal {
  id: string;
  createdAt: Date;
  amount: number;
  status: string;
  reviewedAt: Date | null;
  paidAt: Date | null;
  payoutReference: string | null;
  rejectionReason: string | null;
  shopId: string;
}

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

const timeOrNull = (value: Date | string | null) => (value === null ? null : timeOf(value));

/**
 * Every withdrawal of the seller, newest first, one keyset page of EXPORT_PAGE_ROWS at a time; the next page is read
 * only when the caller asks for it. The cursor is the last row's `created_at` as the driver gave it, so no precision
 * is lost between pages.
 */
export async function* withdrawalExportPages(em: EntityManager, sellerId: string): AsyncGenerator<ExportedWithdrawal[]> {
  let cursor: [Date | string, string] | null = null;
  for (;;) {
    const rows: WithdrawalRow[] = await em.execute<WithdrawalRow[]>(
      `select "id", "created_at", "amount", "status", "reviewed_at", "paid_at", "payout_reference", "rejection_reason", "shop_id"
         from "withdrawals" where "seller_id" = ?${cursor ? ' and ("created_at", "id") < (?, ?)' : ''}
        order by "created_at" desc, "id" desc limit ${EXPORT_PAGE_ROWS}`,
      cursor ? [sellerId, cursor[0], cursor[1]] : [sellerId],
    );
    if (rows.length === 0) return;
    yield rows.map((w) => ({
      id: w.id,
      createdAt: timeOf(w.created_at),
      amount: Number(w.amount),
      status: w.status,
      reviewedAt: timeOrNull(w.reviewed_at),
      paidAt: timeOrNull(w.paid_at),
      payoutReference: w.payout_reference,
      rejectionReason: w.rejection_reason,
      shopId: w.shop_id,
    }));
    const last = rows[rows.length - 1];
    cursor = [last.created_at, last.id];
    if (rows.length < EXPORT_PAGE_ROWS) return;
  }
}
