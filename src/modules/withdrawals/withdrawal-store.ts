import type { EntityManager } from '@mikro-orm/postgresql';
import { enumOf, openStatesOf } from '../../platform/lifecycle/lifecycle';
import { exactCents, type Cents } from '../../shared/cents';
import { timeOf } from '../../shared/csv';
import { EXPORT_PAGE_ROWS } from '../../shared/limits';
import type { WithdrawalStatus } from './withdrawal.entity';
import { WITHDRAWAL_LIFECYCLE } from './withdrawal.lifecycle';

// The withdrawals' own SQL: the seller's export pages, the seller's row lock a request and an approval take, the
// approval's look at the withdrawal, and each seller's sums by state.

// From the lifecycle table, not withdrawal.entity.ts: that loads other modules, and this file is loaded by ones that load none.
const STATUS = enumOf(WITHDRAWAL_LIFECYCLE.states);
/** Statuses whose amount is still held, as PENDING_WITHDRAWAL_STATUSES. */
const PENDING = openStatesOf(WITHDRAWAL_LIFECYCLE);

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

/** What a withdrawal request checks of its seller. */
export interface SellerForWithdrawal {
  emailVerified: boolean;
  payoutAccountSet: boolean;
}

/**
 * Locks the seller's row (SELECT … FOR UPDATE) until `tx` ends and answers what a withdrawal request checks of it:
 * requests of one seller are serialized, so each reads the balance with the others' holds in it.
 */
export async function lockSellerForWithdrawal(tx: EntityManager, sellerId: string): Promise<SellerForWithdrawal> {
  const [row] = await tx.execute<{ id: string; email_verified_at: Date | string | null; payout_account_number: string | null }[]>(
    'select "id", "email_verified_at", "payout_account_number" from "sellers" where "id" = ? for update',
    [sellerId],
  );
  return { emailVerified: Boolean(row.email_verified_at), payoutAccountSet: Boolean(row.payout_account_number) };
}

/** A withdrawal as an approval looks at it before its move: whose it is, where it stands, who asked for it. */
export interface WithdrawalForApproval {
  sellerId: string;
  status: WithdrawalStatus;
  requestedById: string | null;
}

/** The withdrawal `id` as an approval looks at it, without a lock (the move's conditional UPDATE decides); null when none. */
export async function withdrawalForApproval(tx: EntityManager, id: string): Promise<WithdrawalForApproval | null> {
  const [row] = await tx.execute<{ seller_id: string; status: WithdrawalStatus; requested_by_id: string | null }[]>(
    'select "seller_id", "status", "requested_by_id" from "withdrawals" where "id" = ?',
    [id],
  );
  return row ? { sellerId: row.seller_id, status: row.status, requestedById: row.requested_by_id } : null;
}

/** Locks the seller's row until `tx` ends: the lock a withdrawal request takes, so an approval reads a settled balance. */
export async function lockSeller(tx: EntityManager, sellerId: string): Promise<void> {
  await tx.execute('select "id" from "sellers" where "id" = ? for update', [sellerId]);
}

/** One seller's withdrawals summed by state: pending (held, not yet paid) and paid out. */
export interface WithdrawalSums {
  sellerId: string;
  pending: Cents;
  paid: Cents;
}

/** The sums of the sellers named that have withdrawals; a seller with none has no row. */
export async function withdrawalSumsBySeller(em: EntityManager, sellerIds: readonly string[]): Promise<WithdrawalSums[]> {
  const rows = await em.execute<{ seller_id: string; pending: string; paid: string }[]>(
    `select "seller_id",
            coalesce(sum("amount") filter (where "status" in (?)), 0) as pending,
            coalesce(sum("amount") filter (where "status" = ?), 0) as paid
       from "withdrawals" where "seller_id" in (?) group by "seller_id"`,
    [[...PENDING], STATUS.PAID, sellerIds as string[]],
  );
  return rows.map((row) => ({ sellerId: row.seller_id, pending: exactCents(row.pending), paid: exactCents(row.paid) }));
}
