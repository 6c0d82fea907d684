import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Metrics } from './metrics';

/**
 * The counts behind the gauges, each read by the module that owns its table (its store). The entry point passes
 * them in (src/apps/app.ts): this adapter sits below the modules and imports none of them.
 */
export interface QueueCounts {
  webhookDeliveries(em: EntityManager): Promise<{ due: number; waiting: number; oldestDueSeconds: number }>;
  refunds(em: EntityManager): Promise<{ approved: number; needingAttention: number; nearReviewDeadline: number }>;
  paymentsNeedingAttention(em: EntityManager): Promise<number>;
  mails(em: EntityManager): Promise<{ due: number; waiting: number; failed: number; unknown: number }>;
  /** The mail table's names of the two states, which label their gauges (src/modules/notifications/mail.lifecycle.ts). */
  mailStates: { failed: string; unknown: string };
}

/**
 * Sets `queue_depth` and the other work gauges at scrape time from PostgreSQL, where every queue's truth lives
 * (bull only carries "do it now" jobs): webhook deliveries due now and waiting for a later retry, approved refunds,
 * payments and refunds an admin must settle, refund requests near their review deadline, the mail outbox.
 * One statement per module, one after the other, so a scrape holds at most one connection at a time.
 */
export async function sampleQueueDepth(orm: MikroORM, metrics: Metrics, counts: QueueCounts): Promise<void> {
  const em = orm.em.fork();
  const deliveries = await counts.webhookDeliveries(em);
  metrics.queueDepth.set({ queue: 'webhook_deliveries_due' }, deliveries.due);
  metrics.queueDepth.set({ queue: 'webhook_deliveries_waiting' }, deliveries.waiting);
  metrics.webhookOldestUndelivered.set(Math.max(0, deliveries.oldestDueSeconds));
  const refunds = await counts.refunds(em);
  metrics.queueDepth.set({ queue: 'refunds_approved' }, refunds.approved);
  metrics.needsAttention.set({ kind: 'refund' }, refunds.needingAttention);
  metrics.refundsNearReviewDeadline.set(refunds.nearReviewDeadline);
  metrics.needsAttention.set({ kind: 'payment' }, await counts.paymentsNeedingAttention(em));
  const mails = await counts.mails(em);
  metrics.queueDepth.set({ queue: 'mails_due' }, mails.due);
  metrics.queueDepth.set({ queue: 'mails_waiting' }, mails.waiting);
  metrics.mailsNeedingAttention.set({ status: counts.mailStates.failed }, mails.failed);
  metrics.mailsNeedingAttention.set({ status: counts.mailStates.unknown }, mails.unknown);
}
