import { ManyToOne, type EntityClass, type Opt, Property } from '@mikro-orm/core';
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { pageOf, validPageRequest, windowOf, type Page } from '../../shared/pagination';
import { ListOrder, orderByOf } from '../../shared/list-order';
import type { Admin } from './admin.entity';

/**
 * What every requested money movement reviewed by admins keeps of its review: a refund and a withdrawal are
 * the same kind of thing (asked for, then approved or rejected under four eyes: src/platform/lifecycle/review-move.ts),
 * so their review columns are declared once, here, and inherited (their GraphQL fields: reviewed-by-admins.object.ts).
 */
export abstract class ReviewedByAdmins {
  @ManyToOne('Admin', { nullable: true })
  reviewedBy: Admin | null = null;

  @Property({ type: 'text', nullable: true })
  rejectionReason: string | null = null;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', nullable: true })
  reviewedAt: Date | null = null;
}

/**
 * A review queue (refunds, withdrawals): oldest first unless `order` says otherwise, so the requests nearest their
 * deadline come first; `where` keeps only the set filters (a null or absent filter does not filter).
 */
export async function reviewQueue<E extends ReviewedByAdmins & { id: string }>(
  em: EntityManager,
  entity: EntityClass<E>,
  where: Record<string, string | null | undefined>,
  page?: number | null,
  limit?: number | null,
  order?: ListOrder | null,
): Promise<Page<E>> {
  const request = validPageRequest(page, limit);
  const set = Object.fromEntries(Object.entries(where).filter(([, value]) => value)) as FilterQuery<E>;
  const orderBy = orderByOf(order, ListOrder.OLDEST_FIRST, { time: 'createdAt', amount: 'amount' });
  const [items, total] = await em.findAndCount(entity, set, { orderBy: orderBy as never, ...windowOf(request) });
  return pageOf(request, items, total);
}
