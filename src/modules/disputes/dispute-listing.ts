import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { openStatesOf } from '../../platform/lifecycle/lifecycle';
import { DISPUTE_LIFECYCLE } from './dispute.lifecycle';
import { ListOrder, orderByOf } from '../../shared/list-order';
import { pageOf, validPageRequest, windowOf, type Page } from '../../shared/pagination';
import { domainError } from '../../shared/errors';
import { Dispute, type DisputeStatus } from './dispute.entity';

/** The disputes still open (not won, lost or closed): the ones finance follows. */
export const OPEN_DISPUTE_STATUSES: readonly DisputeStatus[] = openStatesOf(DISPUTE_LIFECYCLE);

export interface DisputeFilter {
  status?: DisputeStatus | null;
  /** Only those still open; with `status`, the status must be an open one too. */
  open?: boolean | null;
}

/** Disputes across shops for admins: oldest opened first (the ones longest waiting), one page at a time. */
export async function listDisputes(em: EntityManager, filter: DisputeFilter, page?: number | null, limit?: number | null, order?: ListOrder | null): Promise<Page<Dispute>> {
  const request = validPageRequest(page, limit);
  const where: FilterQuery<Dispute> = {};
  if (filter.status) where.status = filter.status;
  if (filter.open) where.status = filter.status ? (OPEN_DISPUTE_STATUSES.includes(filter.status) ? filter.status : { $in: [] }) : { $in: [...OPEN_DISPUTE_STATUSES] };
  const orderBy = orderByOf(order, ListOrder.OLDEST_FIRST, { time: 'openedAt', amount: 'amount' });
  const [items, total] = await em.findAndCount(Dispute, where, { orderBy: orderBy as never, ...windowOf(request) });
  return pageOf(request, items, total);
}

export async function findDispute(em: EntityManager, id: string): Promise<Dispute> {
  const dispute = await em.findOne(Dispute, { id });
  if (!dispute) throw domainError('DISPUTE_NOT_FOUND');
  return dispute;
}
