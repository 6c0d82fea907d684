import type { MikroORM } from '@mikro-orm/postgresql';
import { enumOf } from '../lifecycles/lifecycle';
import { CHECKOUT_STAGES } from '../lifecycles/payment.lifecycle';
import { REFUND_LIFECYCLE } from '../lifecycles/refund.lifecycle';
import { WEBHOOK_DELIVERY_LIFECYCLE } from '../lifecycles/webhook-delivery.lifecycle';
import type { Metrics } from './metrics';

/** The states counted, from the lifecycle tables (src/lifecycles/). */
const DELIVERY = enumOf(WEBHOOK_DELIVERY_LIFECYCLE.states);
const REFUND = enumOf(REFUND_LIFECYCLE.states);
const STAGE = enumOf(CHECKOUT_STAGES);

/**
 * Sets `queue_depth` at scrape time from PostgreSQL, where every queue's truth lives (bull only carries
 * "do it now" jobs): webhook deliveries due now, deliveries waiting for a later retry, approved refunds.
 */
export async function sampleQueueDepth(orm: MikroORM, metrics: Metrics): Promise<void> {
  const [row] = await orm.em.getConnection().execute<{ due: string; waiting: string; refunds: string; payments_flagged: string; refunds_flagged: string }[]>(
    `select
       (select count(*) from "webhook_deliveries" where "status" = ? and "next_attempt_at" <= now()) as due,
       (select count(*) from "webhook_deliveries" where "status" = ? and "next_attempt_at" > now()) as waiting,
       (select count(*) from "refunds" where "status" in (?, ?)) as refunds,
       (select count(*) from "payments" where "needs_attention_at" is not null and "checkout_stage" = ?) as payments_flagged,
       (select count(*) from "refunds" where "needs_attention_at" is not null and "status" = ?) as refunds_flagged`,
    [DELIVERY.PENDING, DELIVERY.PENDING, REFUND.APPROVED, REFUND.PROCESSING, STAGE.PROCESSING, REFUND.PROCESSING],
  );
  metrics.queueDepth.set({ queue: 'webhook_deliveries_due' }, Number(row.due));
  metrics.queueDepth.set({ queue: 'webhook_deliveries_waiting' }, Number(row.waiting));
  metrics.queueDepth.set({ queue: 'refunds_approved' }, Number(row.refunds));
  metrics.needsAttention.set({ kind: 'payment' }, Number(row.payments_flagged));
  metrics.needsAttention.set({ kind: 'refund' }, Number(row.refunds_flagged));
}
