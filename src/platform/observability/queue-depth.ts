import type { MikroORM } from '@mikro-orm/postgresql';
import { enumOf } from '../lifecycle/lifecycle';
import { MAIL_LIFECYCLE } from '../../modules/notifications/mail.lifecycle';
import { CHECKOUT_STAGES } from '../../modules/payments/payment.lifecycle';
import { REFUND_LIFECYCLE } from '../../modules/refunds/refund.lifecycle';
import { WEBHOOK_DELIVERY_LIFECYCLE } from '../../modules/webhooks/webhook-delivery.lifecycle';
import type { Metrics } from './metrics';

/** The states counted, from the lifecycle tables (src/modules/lifecycles.ts). */
const DELIVERY = enumOf(WEBHOOK_DELIVERY_LIFECYCLE.states);
const REFUND = enumOf(REFUND_LIFECYCLE.states);
const STAGE = enumOf(CHECKOUT_STAGES);
const MAIL = enumOf(MAIL_LIFECYCLE.states);

/**
 * Sets `queue_depth` at scrape time from PostgreSQL, where every queue's truth lives (bull only carries
 * "do it now" jobs): webhook deliveries due now, deliveries waiting for a later retry, approved refunds.
 */
export async function sampleQueueDepth(orm: MikroORM, metrics: Metrics): Promise<void> {
  const [row] = await orm.em.getConnection().execute<{
    due: string; waiting: string; refunds: string; payments_flagged: string; refunds_flagged: string; oldest_due_seconds: string; refunds_near_deadline: string;
  }[]>(
    `select
       (select count(*) from "webhook_deliveries" where "status" = ? and "next_attempt_at" <= now()) as due,
       (select count(*) from "webhook_deliveries" where "status" = ? and "next_attempt_at" > now()) as waiting,
       (select count(*) from "refunds" where "status" in (?, ?)) as refunds,
       (select count(*) from "payments" where "needs_attention_at" is not null and "checkout_stage" = ?) as payments_flagged,
       (select count(*) from "refunds" where "needs_attention_at" is not null and "status" = ?) as refunds_flagged,
       (select coalesce(extract(epoch from now() - min("next_attempt_at")), 0) from "webhook_deliveries"
         where "status" = ? and "next_attempt_at" <= now()) as oldest_due_seconds,
       (select count(*) from "refunds" where "status" = ? and "created_at" <= now() - interval '20 hours') as refunds_near_deadline`,
    [DELIVERY.PENDING, DELIVERY.PENDING, REFUND.APPROVED, REFUND.PROCESSING, STAGE.PROCESSING, REFUND.PROCESSING, DELIVERY.PENDING, REFUND.REQUESTED],
  );
  metrics.queueDepth.set({ queue: 'webhook_deliveries_due' }, Number(row.due));
  metrics.queueDepth.set({ queue: 'webhook_deliveries_waiting' }, Number(row.waiting));
  metrics.queueDepth.set({ queue: 'refunds_approved' }, Number(row.refunds));
  metrics.needsAttention.set({ kind: 'payment' }, Number(row.payments_flagged));
  metrics.needsAttention.set({ kind: 'refund' }, Number(row.refunds_flagged));
  metrics.webhookOldestUndelivered.set(Math.max(0, Number(row.oldest_due_seconds)));
  metrics.refundsNearReviewDeadline.set(Number(row.refunds_near_deadline));
  await sampleMailOutbox(orm, metrics);
}

/** The mail outbox: mails due now, mails waiting for a retry, and those an admin should look at (failed, unknown). */
async function sampleMailOutbox(orm: MikroORM, metrics: Metrics): Promise<void> {
  const [row] = await orm.em.getConnection().execute<{ due: string; waiting: string; failed: string; unknown: string }[]>(
    `select
       (select count(*) from "mail_outbox" where "status" = ? and "next_attempt_at" <= now()) as due,
       (select count(*) from "mail_outbox" where "status" = ? and "next_attempt_at" > now()) as waiting,
       (select count(*) from "mail_outbox" where "status" = ?) as failed,
       (select count(*) from "mail_outbox" where "status" = ?) as unknown`,
    [MAIL.PENDING, MAIL.PENDING, MAIL.FAILED, MAIL.UNKNOWN],
  );
  metrics.queueDepth.set({ queue: 'mails_due' }, Number(row.due));
  metrics.queueDepth.set({ queue: 'mails_waiting' }, Number(row.waiting));
  metrics.mailsNeedingAttention.set({ status: MAIL.FAILED }, Number(row.failed));
  metrics.mailsNeedingAttention.set({ status: MAIL.UNKNOWN }, Number(row.unknown));
}
