import type { EntityManager } from '@mikro-orm/postgresql';
import { enumOf } from '../../platform/lifecycle/lifecycle';
import { WEBHOOK_DELIVERY_LIFECYCLE } from '../webhooks/webhook-delivery.lifecycle';
import { WEBHOOK_FAILURE_NOTICE_AFTER_HOURS } from '../../shared/limits';
import { queueSellerNotice } from './mail-outbox';
import { hostOf } from './mail-text';

const DELIVERY = enumOf(WEBHOOK_DELIVERY_LIFECYCLE.states);

/**
 * The sweep behind "webhook deliveries failing for more than a day": a shop (live, with a webhook URL) one of
 * whose real deliveries has been failing (pending after at least one attempt) for WEBHOOK_FAILURE_NOTICE_AFTER_HOURS,
 * with no delivery of that shop succeeding since it was created. The notification's subject is that oldest
 * failing delivery, so one outage is told once, however many sweeps and processes run (the outbox's unique key);
 * a later outage, after a success, has a new oldest delivery and is told again. Answers how many were written.
 */
export async function queueWebhookFailureNotices(em: EntityManager, afterMs = WEBHOOK_FAILURE_NOTICE_AFTER_HOURS * 3_600_000): Promise<number> {
  const outages = await em.execute<{ shop_id: string; delivery_id: string; since: Date | string; webhook_url: string; failing: number }[]>(
    `select distinct on (d."shop_id") d."shop_id", d."id" as delivery_id, d."created_at" as since, sh."webhook_url",
            (select count(*) from "webhook_deliveries" x where x."shop_id" = d."shop_id" and x."status" = ? and x."attempt_count" > 0)::int as failing
       from "webhook_deliveries" d
       join "webhook_events" e on e."id" = d."event_id"
       join "shops" sh on sh."id" = d."shop_id"
      where d."status" = ? and d."attempt_count" > 0 and not e."test"
        and d."created_at" < now() - ? * interval '1 millisecond'
        and sh."deleted_at" is null and sh."webhook_url" is not null
        and not exists (select 1 from "webhook_deliveries" ok where ok."shop_id" = d."shop_id" and ok."status" = ? and ok."delivered_at" > d."created_at")
      order by d."shop_id", d."created_at", d."id"`,
    [DELIVERY.PENDING, DELIVERY.PENDING, afterMs, DELIVERY.DELIVERED],
  );
  let written = 0;
  for (const outage of outages) {
    const since = new Date(outage.since).toISOString();
    const wrote = await queueSellerNotice(em, {
      kind: 'webhook-failing',
      shopId: outage.shop_id,
      subjectId: outage.delivery_id,
      params: { host: hostOf(outage.webhook_url), since, failing: outage.failing },
    });
    if (wrote) written++;
  }
  return written;
}
