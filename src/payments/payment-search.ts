import type { EntityManager } from '@mikro-orm/postgresql';
import { domainError } from '../shared/errors';
import { Payment } from './payment.entity';
import type { PaymentStatus } from './payment-status';
import { pageOf, windowOf, type Page, validPageRequest } from '../shared/pagination';

/** What support searches payments by; every given criterion must match. */
export interface PaymentSearch {
  id?: string | null;
  shopId?: string | null;
  status?: PaymentStatus | null;
  /** Exact address, case-insensitive. */
  customerEmail?: string | null;
  /** Created at or after. */
  createdFrom?: Date | null;
  /** Created before. */
  createdTo?: Date | null;
}

/** Payments across shops for support, newest first, one page at a time. */
export async function searchPayments(em: EntityManager, search: PaymentSearch, page?: number | null, limit?: number | null): Promise<Page<Payment>> {
  const request = validPageRequest(page, limit);
  if (search.createdFrom && search.createdTo && search.createdFrom >= search.createdTo) throw domainError('DATE_RANGE_INVALID');
  const qb = em.createQueryBuilder(Payment, 'p').select('*');
  if (search.id) qb.andWhere({ id: search.id.trim() });
  if (search.shopId) qb.andWhere({ shop: search.shopId.trim() });
  if (search.status) qb.andWhere({ status: search.status });
  if (search.customerEmail?.trim()) qb.andWhere('lower(p.customer_email) = ?', [search.customerEmail.trim().toLowerCase()]);
  if (search.createdFrom) qb.andWhere({ createdAt: { $gte: search.createdFrom } });
  if (search.createdTo) qb.andWhere({ createdAt: { $lt: search.createdTo } });
  qb.orderBy({ createdAt: 'desc', id: 'desc' }).limit(windowOf(request).limit).offset(windowOf(request).offset);
  const [items, total] = await qb.getResultAndCount();
  return pageOf(request, items, total);
}
