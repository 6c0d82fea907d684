import type { MikroORM } from '@mikro-orm/postgresql';
import type { Metrics } from './metrics';

/**
 * Sets `queue_depth` at scrape time from PostgreSQL, where every queue's truth lives (bull only carries
 * "do it now" jobs): webhook deliveries due now, deliveries waiting for a later retry, approved refunds.
 */
export async function sampleQueueDepth(orm: MikroORM, metrics: Metrics): Promise<void> {
  const [row] = await orm.em.getConnection().execute<{ due: string; waiting: string; refunds: string }[]>(
    `select
       (select count(*) from "webhook_deliveries" where "status" = 'pending' and "next_attempt_at" <= now()) as due,
       (select count(*) from "webhook_deliveries" where "status" = 'pending' and "next_attempt_at" > now()) as waiting,
       (select count(*) from "refunds" where "status" in ('approved', 'processing')) as refunds`,
  );
  metrics.queueDepth.set({ queue: 'webhook_deliveries_due' }, Number(row.due));
  metrics.queueDepth.set({ queue: 'webhook_deliveries_waiting' }, Number(row.waiting));
  metrics.queueDepth.set({ queue: 'refunds_approved' }, Number(row.refunds));
}
