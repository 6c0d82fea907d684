import type { EntityManager } from '@mikro-orm/postgresql';
import { WebhookDeliveryStatus } from './webhook-delivery.entity';

// The delivery queue's counts for /metrics: read on every scrape, apart from the outbox's own statements (outbox-store.ts).

/** The delivery queue's counts behind the /metrics gauges. */
export interface DeliveryQueueDepth {
  /** Pending and due now. */
  due: number;
  /** Pending, waiting for a later retry. */
  waiting: number;
  /** How long the oldest due delivery has waited since it fell due; 0 when none is due. */
  oldestDueSeconds: number;
}

/** The delivery queue's counts for a /metrics scrape, in one statement. */
export async function deliveryQueueDepth(em: EntityManager): Promise<DeliveryQueueDepth> {
  const [row] = await em.execute<{ due: string; waiting: string; oldest_due_seconds: string }[]>(
    `select
       (select count(*) from "webhook_deliveries" where "status" = ? and "next_attempt_at" <= now()) as due,
       (select count(*) from "webhook_deliveries" where "status" = ? and "next_attempt_at" > now()) as waiting,
       (select coalesce(extract(epoch from now() - min("next_attempt_at")), 0) from "webhook_deliveries"
         where "status" = ? and "next_attempt_at" <= now()) as oldest_due_seconds`,
    [WebhookDeliveryStatus.PENDING, WebhookDeliveryStatus.PENDING, WebhookDeliveryStatus.PENDING],
  );
  return { due: Number(row.due), waiting: Number(row.waiting), oldestDueSeconds: Number(row.oldest_due_seconds) };
}
