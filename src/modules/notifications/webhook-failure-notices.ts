import type { EntityManager } from '@mikro-orm/postgresql';
import { WEBHOOK_FAILURE_NOTICE_AFTER_HOURS } from '../../shared/limits';
import { webhookOutages } from './mail-facts-store';
import { queueSellerNotice } from './mail-store';
import { hostOf } from './mail-text';

/**
 * The sweep behind "webhook deliveries failing for more than a day": a shop (live, with a webhook URL) one of
 * whose real deliveries has been failing (pending after at least one attempt) for WEBHOOK_FAILURE_NOTICE_AFTER_HOURS,
 * with no delivery of that shop succeeding since it was created. The notification's subject is that oldest
 * failing delivery, so one outage is told once, however many sweeps and processes run (the outbox's unique key);
 * a later outage, after a success, has a new oldest delivery and is told again. Answers how many were written.
 */
export async function queueWebhookFailureNotices(em: EntityManager, afterMs = WEBHOOK_FAILURE_NOTICE_AFTER_HOURS * 3_600_000): Promise<number> {
  const outages = await webhookOutages(em, afterMs);
  let written = 0;
  for (const outage of outages) {
    const since = outage.since.toISOString();
    const wrote = await queueSellerNotice(em, {
      kind: 'webhook-failing',
      shopId: outage.shopId,
      subjectId: outage.deliveryId,
      params: { host: hostOf(outage.webhookUrl), since, failing: outage.failing },
    });
    if (wrote) written++;
  }
  return written;
}
