import type { EntityManager } from '@mikro-orm/postgresql';
import { domainError } from '../../shared/errors';
import { METADATA_KEY_MAX_LENGTH, PAYMENT_TEXT_SEARCH_SCAN } from '../../shared/limits';
import { ListOrder, orderByOf } from '../../shared/list-order';
import type { Payment } from './payment.entity';
import { countPayments, selectPaymentPage, shopIdsOfSeller } from './payment-search-store';
import type { PaymentStatus } from './payment-status';
import { pageOf, windowOf, type Page, validPageRequest } from '../../shared/pagination';
import type { PaymentFilterSql } from './payment-search-store';
export type { PaymentFilterSql } from './payment-search-store';

/** What support (and a seller's dashboard) searches payments by; every given criterion must match. */
export interface PaymentSearch {
  id?: string | null;
  shopId?: string | null;
  /**
   * Every shop of this seller, past (deleted) and present: a dashboard session's history (docs/dashboard.md,
   * "History across shops"). Combined with `shopId`, the shop must be one of them.
   */
  sellerId?: string | null;
  status?: PaymentStatus | null;
  /** Exact address, case-insensitive. */
  customerEmail?: string | null;
  /** The start of the address, case-insensitive, at least 3 characters. */
  customerEmailPrefix?: string | null;
  /** A metadata key and its exact value (as text: "42" finds the number 42 too, "true" the boolean). */
  metadataKey?: string | null;
  metadataValue?: string | null;
  /** Default NEWEST_FIRST. */
  order?: ListOrder | null;
  /**
   * Free text: the payment id, part of the customer's e-mail address or name (any case), or a metadata value
   * (the whole value, any case). Looked for among the newest PAYMENT_TEXT_SEARCH_SCAN payments the other
   * criteria select, so the query stays bounded however large the history.
   */
  text?: string | null;
  /** Created at or after. */
  createdFrom?: Date | null;
  /** Created before. */
  createdTo?: Date | null;
}

/** A WHERE clause over payments `p` (parameters in `?` form, in order), shared by the search and the CSV export. */

/**
 * The metadata documents a key and value match: the value as text, and as the number or boolean it spells (the
 * seller may have sent `"order": 42` or `"order": "42"`); each a containment the metadata index answers.
 */
export function metadataDocuments(key: string, value: string): string[] {
  const candidates: unknown[] = [value];
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(value) && Number.isFinite(Number(value))) candidates.push(Number(value));
  if (value === 'true' || value === 'false') candidates.push(value === 'true');
  return candidates.map((candidate) => JSON.stringify({ [key]: candidate }));
}

/** Characters JSON writes as themselves: a value made only of them appears verbatim in the stored metadata text. */
const VERBATIM_IN_JSON = /^[\p{L}\p{N} @.+\-_:/#]+$/u;

/**
 * A whole metadata value, any case. Splitting every candidate's metadata into values is what a free-text search
 * spends its time on, so a value JSON stores verbatim is first looked for in the document's text (a cheap substring
 * test that can only say "maybe"), and only those documents are split.
 */
function metadataValueSql(text: string): string {
  const exact = 'exists (select 1 from json_each_text(p."metadata") m where lower(m."value") = ?)';
  return VERBATIM_IN_JSON.test(text) ? `(case when strpos(lower(p."metadata"::text), ?) > 0 then ${exact} else false end)` : exact;
}

function metadataValueParams(text: string): string[] {
  const value = text.toLowerCase();
  return VERBATIM_IN_JSON.test(text) ? [value, value] : [value];
}

/** `like` pattern of a text typed by a person: its % and _ are matched as themselves. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The criteria other than the shop scope as SQL over `p`, `shops` the shop ids the caller may reach (null:
 * every shop, for admins). The text criterion restricts the candidates to the newest rows of the rest first.
 */
export function paymentFilterSql(search: PaymentSearch, shops: readonly string[] | null): PaymentFilterSql {
  if (search.createdFrom && search.createdTo && search.createdFrom >= search.createdTo) throw domainError('DATE_RANGE_INVALID');
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, ...values: unknown[]) => {
    clauses.push(sql);
    params.push(...values);
  };
  if (shops?.length === 1) add('p."shop_id" = ?', shops[0]);
  else if (shops) add('p."shop_id" = any(array[?]::text[])', [...shops]);
  if (search.id?.trim()) add('p."id" = ?', search.id.trim());
  if (search.status) add('p."status" = ?', search.status);
  if (search.customerEmail?.trim()) add('lower(p."customer_email") = ?', search.customerEmail.trim().toLowerCase());
  const prefix = search.customerEmailPrefix?.trim().toLowerCase();
  if (prefix !== undefined && prefix !== '') {
    if (prefix.length < 3 || prefix.length > 254) throw domainError('EMAIL_PREFIX_INVALID');
    add(`lower(p."customer_email") like ? escape '\\'`, `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  if (search.metadataKey != null || search.metadataValue != null) {
    const key = search.metadataKey ?? '';
    const value = search.metadataValue ?? '';
    if (key.length < 1 || key.length > METADATA_KEY_MAX_LENGTH || value.length > 500) throw domainError('METADATA_SEARCH_INVALID');
    // Containment, which the payments_metadata_idx GIN index (jsonb_path_ops) answers without reading every row.
    const documents = metadataDocuments(key, value);
    add(`(${documents.map(() => 'p."metadata"::jsonb @> ?::jsonb').join(' or ')})`, ...documents);
  }
  if (search.createdFrom) add('p."created_at" >= ?', search.createdFrom);
  if (search.createdTo) add('p."created_at" < ?', search.createdTo);
  const sql = clauses.length ? clauses.join(' and ') : 'true';
  const text = search.text?.trim();
  if (!text) return { from: '"payments"', fromParams: [], sql, params };
  // The match runs over the candidates only: the newest rows the other criteria select, read once from an index.
  return {
    from: `(select * from "payments" p where ${sql} order by p."created_at" desc, p."id" desc limit ${PAYMENT_TEXT_SEARCH_SCAN})`,
    fromParams: params,
    sql: `(p."id" = ? or lower(coalesce(p."customer_email", '')) like ? escape '\\' or lower(coalesce(p."customer_name", '')) like ? escape '\\'
        or ${metadataValueSql(text)})`,
    params: [text, likePattern(text), likePattern(text), ...metadataValueParams(text)],
  };
}

/** The ORDER BY of a search over `p`: newest first unless `order` says otherwise, ties broken by id. */
export function paymentOrderSql(order: ListOrder | null | undefined): string {
  const columns = orderByOf(order, ListOrder.NEWEST_FIRST, { time: 'created_at', amount: 'amount' });
  return Object.entries(columns).map(([column, direction]) => `p."${column}" ${direction}`).join(', ');
}

/** The shop ids a search may reach: the named shop, the seller's shops, both (the shop must be the seller's), or every shop (null). */
export async function searchScope(em: EntityManager, search: PaymentSearch): Promise<string[] | null> {
  const named = search.shopId?.trim() || null;
  if (!search.sellerId) return named ? [named] : null;
  const own = await shopIdsOfSeller(em, search.sellerId);
  if (named && !own.includes(named)) throw domainError('SHOP_NOT_FOUND');
  return named ? [named] : own;
}

/** Payments across shops for support, or across a seller's shops for the dashboard: newest first, one page at a time. */
export async function searchPayments(em: EntityManager, search: PaymentSearch, page?: number | null, limit?: number | null): Promise<Page<Payment>> {
  const request = validPageRequest(page, limit);
  const shops = await searchScope(em, search);
  const filter = paymentFilterSql(search, shops);
  if (shops && shops.length === 0) return pageOf(request, [], 0);
  const window = windowOf(request);
  // The page and the count on two pooled connections at once: a search answers in the time of the slower.
  const [rows, total] = await Promise.all([
    selectPaymentPage(em, filter, paymentOrderSql(search.order), window.limit, window.offset),
    countPayments(em, filter),
  ]);
  return pageOf(request, rows, total);
}
