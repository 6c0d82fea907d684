import type { EntityManager } from '@mikro-orm/postgresql';
import { paymentFee, sellerNetByPayment } from '../ledger';
import { dollars, isoTime, type CsvCell } from '../../shared/csv';
import { paymentFilterSql, type PaymentFilterSql, type PaymentSearch } from './payment-search';
import { paymentExportPages, refundedByPayment, selectSellerShops } from './payment-search-store';
import { PaymentStatus } from './payment-status';

export const PAYMENT_EXPORT_COLUMNS = [
  'id', 'created_at', 'completed_at', 'status', 'currency', 'amount', 'fee', 'refunded', 'net', 'customer_email', 'customer_name',
  'metadata', 'shop_id', 'shop_name', 'past_shop',
] as const;

const CHARGED: readonly string[] = [PaymentStatus.COMPLETED, PaymentStatus.REFUNDED];

/**
 * Every payment of the seller's shops (past and present) that the search selects, newest first, as CSV rows
 * (PAYMENT_EXPORT_COLUMNS; amounts in dollars), handed to `write` one keyset page of EXPORT_PAGE_ROWS at a time.
 * Fee and net are those of a charged payment (empty for a pending or failed one); net is what the seller kept, as
 * the ledger has it: the amount less the fee, the refunds carried out and the chargebacks the seller bears.
 */
export async function eachPaymentExportPage(em: EntityManager, sellerId: string, search: PaymentSearch, write: (rows: CsvCell[][]) => Promise<void>): Promise<void> {
  const shops = await selectSellerShops(em, sellerId);
  const named = search.shopId?.trim();
  const scope = shops.filter((s) => !named || s.id === named);
  if (scope.length === 0) return;
  const shopOf = new Map(shops.map((s) => [s.id, s]));
  for await (const rows of paymentExportPages(em, exportFilters(scope.map((s) => s.id), search))) {
    const ids = rows.map((r) => r.id);
    const [refunded, net] = await Promise.all([refundedByPayment(em, ids), sellerNetByPayment(em, ids)]);
    await write(rows.map((p) => {
      const shop = shopOf.get(p.shopId)!;
      const charged = CHARGED.includes(p.status);
      const amount = p.amount;
      const back = refunded.get(p.id) ?? 0;
      const fee = paymentFee({ amount, test: p.test });
      return [
        p.id, isoTime(p.createdAt), isoTime(p.completedAt), p.status, p.currency, dollars(amount),
        charged ? dollars(fee) : '', dollars(back), charged ? dollars(net.get(p.id) ?? 0) : '',
        p.customerEmail, p.customerName, JSON.stringify(p.metadata), shop.id, shop.name, shop.deletedAt ? 'yes' : 'no',
      ];
    }));
  }
}

/**
 * The search over the shops in scope, as the export's pages read it: one filter for one shop or a text search
 * (its bounded candidates in one query), else one per shop, whose ranges the store merges so that no page sorts
 * the whole history.
 */
function exportFilters(shopIds: string[], search: PaymentSearch): PaymentFilterSql[] {
  if (shopIds.length === 1 || search.text?.trim()) return [paymentFilterSql({ ...search, shopId: null }, shopIds)];
  return shopIds.map((id) => paymentFilterSql({ ...search, shopId: null }, [id]));
}
