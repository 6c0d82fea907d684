import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAudit } from '../audit';
import type { Admin } from '../admins';
import { validWebhookEvents, type Shop, type WebhookEventType } from '../identity';
import { domainError } from '../../shared/errors';
import { deliveryEmittedWith, emit } from './outbox';
import type { WebhookDelivery } from './webhook-delivery.entity';
import type { WebhookEvent } from './webhook-event.entity';
import type { WebhookServices } from './webhook-settings.service';

export interface TriggeredTestEvent {
  event: WebhookEvent;
  /** Its delivery to the shop's webhook URL; null when the shop has none or does not receive the type. */
  delivery: WebhookDelivery | null;
}

/**
 * A signed test event of any type for the shop (`npm run seller -- trigger`): to its webhook URL as a real event of
 * that type would go, and to every event stream of the shop (docs/integrate.md, "Events on your machine"). Counted with
 * the settings page's test deliveries, per shop whoever asks, so it cannot be turned into a flood of POSTs.
 */
export async function triggerTestEvent(em: EntityManager, admin: Admin | null, shop: Shop, services: WebhookServices, type: string): Promise<TriggeredTestEvent> {
  if (validWebhookEvents([type]) === null) throw domainError('WEBHOOK_EVENT_UNKNOWN');
  const decision = await services.testDeliveries.consume(shop.id);
  if (!decision.allowed) throw domainError('WEBHOOK_TEST_RATE_LIMITED', decision.limit, decision.retryAfterSeconds);
  const eventType = type as WebhookEventType;
  const event = await emit(em, { triggeredFor: shop, type: eventType, subjects: (createdAt) => services.sampleSubjects(eventType, createdAt) });
  const delivery = deliveryEmittedWith(event) ?? null;
  if (admin) {
    recordAudit(em, admin, { action: 'shop.webhook_test_sent', targetType: 'shop', targetId: shop.id, details: { eventId: event.id, type, deliveryId: delivery?.id ?? null, url: delivery ? shop.webhookUrl : null } });
  }
  await em.flush();
  return { event, delivery };
}
