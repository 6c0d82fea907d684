import type { EntityManager } from '@mikro-orm/postgresql';
import { timeOf } from '../../shared/csv';
import { EXPORT_PAGE_ROWS } from '../../shared/limits';
import { enumOf } from '../../platform/lifecycle/lifecycle';
import { REFUND_LIFECYCLE } from '../refunds/refund.lifecycle';
import { Payment } from './payment.entity';
import { paymentViewOfRow } from './payment-store';
import type { PaymentView } from './payment-view';

/** `select … from ${from} p where ${sql}`, with `fromParams` then `params`. */
export interface PaymentFilterSql {
  from: string;
  fromParams: unknown[];
  sql: string;
  params: unknown[];
}

// The SQL of searching and exporting payments: the filter comes from payment-search.ts (paymentFilterSql), which
// checks the criteria; these run it. On the ORM's connection, not the hot paths' pool.

/** The refunds the export sums, named by refunds' lifecycle table (pure data every layer reads): payments load nothing of refunds. */
const REFUNDED = enumOf(REFUND_LIFECYCLE.states).REFUNDED;

/** The shops of a seller, past and present (a seller has a handful: one live, the rest deleted). */
export async function shopIdsOfSeller(em: EntityManager, sellerId: string): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>('select "id" from "shops" where "seller_id" = ? order by "created_at", "id"', [sellerId]);
  return rows.map((r) => r.id);
}

/** One page of the payments the filter selects, in `orderSql` (paymentOrderSql), as entities. */
export async function selectPaymentPage(em: EntityManager, filter: PaymentFilterSql, orderSql: string, limit: number, offset: number): Promise<Payment[]> {
  const rows = await em.execute<Record<string, unknown>[]>(
    `select p.* from ${filter.from} p where ${filter.sql} order by ${orderSql} limit ? offset ?`,
    [...filter.fromParams, ...filter.params, limit, offset],
  );
  return rows.map((row) => em.map(Payment, row));
}

/** How many payments the filter selects. */
export async function countPayments(em: EntityManager, filter: PaymentFilterSql): Promise<number> {
  const [{ total }] = await em.execute<{ total: string }[]>(`select count(*) as total from ${filter.from} p where ${filter.sql}`, [...filter.fromParams, ...filter.params]);
  return Number(total);
}

/** A seller's shop as its export names it: a deleted one is still the seller's past shop. */
export interface SellerShop {
  id: string;
  name: string;
  deletedAt: Date | null;
}

/** Every shop of the seller, past (deleted) and present. */
export async function selectSellerShops(em: EntityManager, sellerId: string): Promise<SellerShop[]> {
  const rows = await em.execute<{ id: string; name: string; deleted_at: Date | null }[]>('select "id", "name", "deleted_at" from "shops" where "seller_id" = ?', [sellerId]);
  return rows.map((s) => ({ id: s.id, name: s.name, deletedAt: s.deleted_at }));
}

/** A payment as the CSV export reads it: the read shape, with its shop and whether it was a live test (no fee). */
export type ExportedPayment = PaymentView & Pick<Payment, 'test'> & { shopId: string };

/** The export's rows select `p.*`: times as the driver gives a timestamptz (text, see timeOf). */
interface PaymentRow extends Record<string, unknown> {
  id: string;
  shop_id: string;
  created_at: Date | string;
  completed_at: Date | string | null;
  test: boolean;
}

function exportedPaymentOf(row: PaymentRow): ExportedPayment {
  const completedAt = row.completed_at === null ? null : timeOf(row.completed_at);
  return { ...paymentViewOfRow(row, timeOf(row.created_at), completedAt), shopId: row.shop_id, test: row.test };
}

type Cursor = [Date | string, string];

/**
 * Every payment the filters select, newest first, one keyset page of EXPORT_PAGE_ROWS at a time; the next page is
 * read only when the caller asks for it. The cursor is the last row's `created_at` as the driver gave it, so no
 * precision is lost between pages.
 */
export async function* paymentExportPages(em: EntityManager, filters: readonly PaymentFilterSql[]): AsyncGenerator<ExportedPayment[]> {
  const page = pageQuery(filters);
  let cursor: Cursor | null = null;
  for (;;) {
    const rows: PaymentRow[] = await em.execute<PaymentRow[]>(page.sql(cursor), page.params(cursor));
    if (rows.length === 0) return;
    yield rows.map(exportedPaymentOf);
    const last = rows[rows.length - 1];
    cursor = [last.created_at, last.id];
    if (rows.length < EXPORT_PAGE_ROWS) return;
  }
}

/**
 * One keyset page (newest first, after `cursor`). One filter (one shop, or a text search, which reads its bounded
 * candidates in one query): a range of payments_shop_created_idx. One filter per shop: each shop's range merged
 * (UNION ALL of ordered branches), so no page sorts the whole history.
 */
function pageQuery(filters: readonly PaymentFilterSql[]) {
  const keyset = (alias: string, cursor: Cursor | null) => (cursor ? ` and (${alias}."created_at", ${alias}."id") < (?, ?)` : '');
  const cursorParams = (cursor: Cursor | null) => (cursor ? [cursor[0], cursor[1]] : []);
  const order = 'order by p."created_at" desc, p."id" desc';
  if (filters.length === 1) {
    const [filter] = filters;
    return {
      sql: (cursor: Cursor | null) => `select p.* from ${filter.from} p where ${filter.sql}${keyset('p', cursor)} ${order} limit ${EXPORT_PAGE_ROWS}`,
      params: (cursor: Cursor | null) => [...filter.fromParams, ...filter.params, ...cursorParams(cursor)],
    };
  }
  return {
    sql: (cursor: Cursor | null) =>
      `select p.* from (${filters.map((b) => `(select p.* from ${b.from} p where ${b.sql}${keyset('p', cursor)} ${order} limit ${EXPORT_PAGE_ROWS})`).join(' union all ')}) p ${order} limit ${EXPORT_PAGE_ROWS}`,
    params: (cursor: Cursor | null) => filters.flatMap((b) => [...b.fromParams, ...b.params, ...cursorParams(cursor)]),
  };
}

/** Cents refunded to the card per payment (refunds carried out; reversed ones gave the money back). */
export async function refundedByPayment(em: EntityManager, paymentIds: string[]): Promise<Map<string, number>> {
  const rows = await em.execute<{ payment_id: string; refunded: string }[]>(
    'select "payment_id", sum("amount") as refunded from "refunds" where "payment_id" = any(array[?]::text[]) and "status" = ? group by "payment_id"',
    [paymentIds, REFUNDED],
  );
  return new Map(rows.map((r) => [r.payment_id, Number(r.refunded)]));
}
