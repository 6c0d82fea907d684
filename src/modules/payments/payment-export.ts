import type { EntityManager } from '@mikro-orm/postgresql';
import { paymentFee } from '../ledger/fee';
import { RefundStatus } from '../refunds/refund.entity';
import { dollars, isoTime, type CsvCell } from '../../shared/csv';
import { EXPORT_PAGE_ROWS } from '../../shared/limits';
import { paymentFilterSql, type PaymentSearch } from './payment-search';
import { PaymentStatus } from './payment-status';

export const PAYMENT_EXPORT_COLUMNS = [
  'id', 'created_at', 'completed_at', 'status', 'currency', 'amount', 'fee', 'refunded', 'net', 'customer_email', 'customer_name',
  'metadata', 'shop_id', 'shop_name', 'past_shop',
] as const;

interface PaymentRow {
  id: string;
  shop_id: string;
  amount: string;
  currency: string;
  status: PaymentStatus;
  customer_email: string | null;
  customer_name: string | null;
  metadata: unknown;
  created_at: Date | string;
  completed_at: Date | string | null;
  test: boolean;
}

const CHARGED: readonly string[] = [PaymentStatus.COMPLETED, PaymentStatus.REFUNDED];

/**
 * Every payment of the seller's shops (past and present) that the search selects, newest first, as CSV rows
 * (PAYMENT_EXPORT_COLUMNS; amounts in dollars), handed to `write` one keyset page of EXPORT_PAGE_ROWS at a time.
 * Fee and net are those of a charged payment (empty for a pending or failed one); net is what the seller kept
 * after the fee and the refunds carried out.
 */
export async function eachPaymentExportPage(em: EntityManager, sellerId: string, search: PaymentSearch, write: (rows: CsvCell[][]) => Promise<void>): Promise<void> {
  const shops = await em.execute<{ id: string; name: string; deleted_at: Date | null }[]>('select "id", "name", "deleted_at" from "shops" where "seller_id" = ?', [sellerId]);
  const named = search.shopId?.trim();
  const scope = shops.filter((s) => !named || s.id === named);
  if (scope.length === 0) return;
  const shopOf = new Map(shops.map((s) => [s.id, s]));
  const page = pageQuery(scope.map((s) => s.id), search);
  let cursor: [Date | string, string] | null = null;
  for (;;) {
    const rows: PaymentRow[] = await em.execute<PaymentRow[]>(page.sql(cursor), page.params(cursor));
    if (rows.length === 0) return;
    const refunded = await refundedOf(em, rows.map((r) => r.id));
    await write(rows.map((p) => {
      const shop = shopOf.get(p.shop_id)!;
      const charged = CHARGED.includes(p.status);
      const amount = Number(p.amount);
      const back = refunded.get(p.id) ?? 0;
      const fee = paymentFee({ amount, test: p.test });
      return [
        p.id, isoTime(p.created_at), isoTime(p.completed_at), p.status, p.currency, dollars(amount),
        charged ? dollars(fee) : '', dollars(back), charged ? dollars(amount - fee - back) : '',
        p.customer_email, p.customer_name, JSON.stringify(p.metadata ?? {}), shop.id, shop.name, shop.deleted_at ? 'yes' : 'no',
      ];
    }));
    const last = rows[rows.length - 1];
    cursor = [last.created_at, last.id];
    if (rows.length < EXPORT_PAGE_ROWS) return;
  }
}

/**
 * One keyset page (newest first, after `cursor`). One shop: a range of payments_shop_created_idx. Several
 * shops: each shop's range merged (UNION ALL of ordered branches), so no page sorts the whole history. A text
 * search reads its bounded candidates in one query instead.
 */
function pageQuery(shopIds: string[], search: PaymentSearch) {
  const keyset = (alias: string, cursor: [Date | string, string] | null) => (cursor ? ` and (${alias}."created_at", ${alias}."id") < (?, ?)` : '');
  const cursorParams = (cursor: [Date | string, string] | null) => (cursor ? [cursor[0], cursor[1]] : []);
  const order = 'order by p."created_at" desc, p."id" desc';
  if (shopIds.length === 1 || search.text?.trim()) {
    const filter = paymentFilterSql({ ...search, shopId: null }, shopIds);
    return {
      sql: (cursor: [Date | string, string] | null) => `select p.* from ${filter.from} p where ${filter.sql}${keyset('p', cursor)} ${order} limit ${EXPORT_PAGE_ROWS}`,
      params: (cursor: [Date | string, string] | null) => [...filter.fromParams, ...filter.params, ...cursorParams(cursor)],
    };
  }
  const branches = shopIds.map((id) => paymentFilterSql({ ...search, shopId: null }, [id]));
  return {
    sql: (cursor: [Date | string, string] | null) =>
      `select p.* from (${branches.map((b) => `(select p.* from ${b.from} p where ${b.sql}${keyset('p', cursor)} ${order} limit ${EXPORT_PAGE_ROWS})`).join(' union all ')}) p ${order} limit ${EXPORT_PAGE_ROWS}`,
    params: (cursor: [Date | string, string] | null) => branches.flatMap((b) => [...b.fromParams, ...b.params, ...cursorParams(cursor)]),
  };
}

/** Cents refunded to the card per payment (refunds carried out; reversed ones gave the money back). */
async function refundedOf(em: EntityManager, paymentIds: string[]): Promise<Map<string, number>> {
  const rows = await em.execute<{ payment_id: string; refunded: string }[]>(
    'select "payment_id", sum("amount") as refunded from "refunds" where "payment_id" = any(array[?]::text[]) and "status" = ? group by "payment_id"',
    [paymentIds, RefundStatus.REFUNDED],
  );
  return new Map(rows.map((r) => [r.payment_id, Number(r.refunded)]));
}
