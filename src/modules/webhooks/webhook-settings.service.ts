import {
  type SecretBox,
  newWebhookSecret,
  setShopWebhookEvents,
  setShopWebhookSecret,
  setShopWebhookUrl,
  validWebhookEvents,
  Shop,
  type WebhookEventType,
} from '../identity';
import { raw, type EntityManager, type FilterQuery } from '@mikro-orm/postgresql';
import { recordAudit, type AuditRecord } from '../audit';
import type { Admin } from '../admins';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter';
import { domainError } from '../../shared/errors';
import { applyMove } from '../../platform/lifecycle/apply-move';
import { sqlList } from '../../platform/lifecycle/lifecycle';
import { WEBHOOK_DELIVERY_LIFECYCLE } from './webhook-delivery.lifecycle';
import { deliveryEmittedWith, emit } from './outbox';
import { noticeWebhookSecretRotated, noticeWebhookUrlChanged } from '../notifications';
import { WebhookAttempt } from './webhook-attempt.entity';
import { WebhookDelivery, WebhookDeliveryStatus } from './webhook-delivery.entity';
import { checkWebhookUrl, type WebhookUrlPolicy } from './webhook-url';
import { pageOf, validPageRequest, windowOf, type Page } from '../../shared/pagination';

/** What the webhook settings need besides the unit of work: built once at start. */
export interface WebhookServices {
  urlPolicy: WebhookUrlPolicy;
  /** `checkWebhookUrl` under that policy, for what sets a URL outside this module (a shop created with one). */
  checkUrl: (url: string) => Promise<string>;
  /** The test delivery's payment payload, created at the given time (payments build every payment payload). */
  samplePayment: (createdAt: Date) => object;
  /** A triggered test event's subjects of its type, made at the given time (payments, refunds and withdrawals build them). */
  sampleSubjects: (type: WebhookEventType, createdAt: Date) => { payment?: object; refund?: object; withdrawal?: object };
  /** Tells the relay a re-sent delivery is due now (a new one wakes it when its transaction commits). */
  wake(): void;
  /** Test deliveries per shop per minute (WEBHOOK_TEST_DELIVERIES_PER_MINUTE), keyed by shop id. */
  testDeliveries: RateLimiter;
}

/** A shop whose webhook settings may change: it exists and is not deleted. */
export async function liveShop(em: EntityManager, id: string): Promise<Shop> {
  const shop = await em.findOne(Shop, { id, deletedAt: null });
  if (!shop) throw domainError('SHOP_NOT_FOUND');
  return shop;
}

/** An admin's change to a shop's webhook settings goes into the audit log, in the same transaction. */
function auditIfAdmin(tx: EntityManager, admin: Admin | null, record: AuditRecord): void {
  if (admin) recordAudit(tx, admin, record);
}

/**
 * Sets (checked: HTTPS, public address) or, with null or '', clears the shop's webhook URL. `confirm` runs
 * after the check and before the change (a dashboard session's re-authentication: a URL that would be
 * refused anyway spends no password attempt or code).
 */
export async function setWebhookUrl(em: EntityManager, admin: Admin | null, shop: Shop, url: string | null, policy: WebhookUrlPolicy, confirm?: () => Promise<void>): Promise<Shop> {
  const trimmed = url?.trim() ?? '';
  const before = shop.webhookUrl;
  const after = trimmed === '' ? null : await checkWebhookUrl(trimmed, policy);
  await confirm?.();
  setShopWebhookUrl(shop, after);
  const action = shop.webhookUrl ? 'shop.webhook_url_set' : 'shop.webhook_url_cleared';
  auditIfAdmin(em, admin, { action, targetType: 'shop', targetId: shop.id, details: { before, after: shop.webhookUrl } });
  // A real change is told to the seller, in the transaction that makes it (src/modules/notifications/).
  await em.begin();
  try {
    if (before !== shop.webhookUrl) await noticeWebhookUrlChanged(em, shop.id, shop.webhookUrl);
    await em.commit();
  } catch (error) {
    await em.rollback();
    throw error;
  }
  return shop;
}

/** Chooses the events sent besides payment.completed (always sent); unknown names are refused. */
export async function setWebhookEvents(em: EntityManager, admin: Admin | null, shop: Shop, events: string[]): Promise<Shop> {
  const chosen = validWebhookEvents(events);
  if (!chosen) throw domainError('WEBHOOK_EVENT_UNKNOWN');
  const before = shop.webhookEvents;
  setShopWebhookEvents(shop, chosen);
  auditIfAdmin(em, admin, { action: 'shop.webhook_events_set', targetType: 'shop', targetId: shop.id, details: { before, after: chosen } });
  await em.flush();
  return shop;
}

/** A new secret, returned once; attempts from now on (retries of older events too) are signed with it. */
export async function rotateWebhookSecret(em: EntityManager, admin: Admin | null, shop: Shop, secrets: SecretBox): Promise<string> {
  const secret = newWebhookSecret();
  await em.transactional(async (tx) => {
    await setShopWebhookSecret(tx, shop.id, secrets.seal(secret));
    auditIfAdmin(tx, admin, { action: 'shop.webhook_secret_rotated', targetType: 'shop', targetId: shop.id });
    await noticeWebhookSecretRotated(tx, shop.id);
  });
  return secret;
}

/**
 * Queues a test delivery (a sample `payment.completed`, header `X-Service-Test: true`, one attempt). Limited per
 * shop, whoever asks, so the button cannot be turned into a flood of POSTs at a URL the seller picks.
 */
export async function sendTestDelivery(em: EntityManager, admin: Admin | null, shop: Shop, services: WebhookServices): Promise<WebhookDelivery> {
  if (!shop.webhookUrl) throw domainError('WEBHOOK_URL_NOT_SET');
  const decision = await services.testDeliveries.consume(shop.id);
  if (!decision.allowed) throw domainError('WEBHOOK_TEST_RATE_LIMITED', decision.limit, decision.retryAfterSeconds);
  const delivery = deliveryEmittedWith(await emit(em, { testFor: shop, samplePayment: services.samplePayment }))!;
  auditIfAdmin(em, admin, { action: 'shop.webhook_test_sent', targetType: 'shop', targetId: shop.id, details: { deliveryId: delivery.id, url: shop.webhookUrl } });
  await em.flush();
  return delivery;
}

/** Starts a fresh schedule for a failed (or delivered) delivery: same event, same bytes, attempt numbers go on. */
export async function resendDelivery(em: EntityManager, admin: Admin | null, delivery: WebhookDelivery, services: WebhookServices): Promise<WebhookDelivery> {
  if (!delivery.shop.webhookUrl) throw domainError('WEBHOOK_URL_NOT_SET');
  await em.transactional(async (tx) => {
    const restarted = await applyMove(tx, WEBHOOK_DELIVERY_LIFECYCLE, WebhookDelivery, 'resend', {
      id: delivery.id,
      changes: { scheduleStart: raw('"attempt_count"'), nextAttemptAt: raw('now()'), deliveredAt: null, failedAt: null } as Partial<WebhookDelivery>,
    });
    if (!restarted) throw domainError('WEBHOOK_DELIVERY_PENDING');
    auditIfAdmin(tx, admin, {
      action: 'shop.webhook_delivery_resent',
      targetType: 'shop',
      targetId: delivery.shop.id,
      details: { deliveryId: delivery.id, eventId: delivery.event.id, paymentId: delivery.paymentId },
    });
  });
  services.wake();
  return em.refreshOrFail(delivery, { populate: ['event'] });
}

/** A delivery within the caller's shop scope (null: every shop). */
export async function findDelivery(em: EntityManager, shopScope: string | null, id: string): Promise<WebhookDelivery> {
  const where: FilterQuery<WebhookDelivery> = shopScope ? { id, shop: shopScope } : { id };
  const delivery = await em.findOne(WebhookDelivery, where, { populate: ['event', 'shop'] });
  if (!delivery) throw domainError('WEBHOOK_DELIVERY_NOT_FOUND');
  return delivery;
}

/** The attempts of each delivery, oldest first, in the order of `deliveryIds`: one query for a page of deliveries. */
export async function attemptsOfDeliveries(em: EntityManager, deliveryIds: readonly string[]): Promise<WebhookAttempt[][]> {
  const attempts = await em.find(WebhookAttempt, { delivery: { $in: [...deliveryIds] } }, { orderBy: { number: 'asc' } });
  const byDelivery = new Map<string, WebhookAttempt[]>(deliveryIds.map((id) => [id, []]));
  for (const attempt of attempts) byDelivery.get(attempt.delivery.id)!.push(attempt);
  return deliveryIds.map((id) => byDelivery.get(id)!);
}

export interface DeliveryFilter {
  /** The caller's shop scope (null: every shop). */
  shopScope: string | null;
  paymentId?: string | null;
  status?: WebhookDeliveryStatus | null;
}

/** The delivery log within the caller's shop scope, failed deliveries first, then newest first. */
export async function listDeliveries(
  em: EntityManager,
  filter: DeliveryFilter,
  page: number | null | undefined,
  limit: number | null | undefined,
): Promise<Page<WebhookDelivery>> {
  const request = validPageRequest(page, limit);
  const where: FilterQuery<WebhookDelivery> = {};
  if (filter.shopScope) where.shop = filter.shopScope;
  if (filter.paymentId) where.paymentId = filter.paymentId;
  if (filter.status) where.status = filter.status;
  const [items, total] = await em.findAndCount(WebhookDelivery, where, {
    populate: ['event'],
    orderBy: { [raw((alias) => `case when ${alias}."status" in (${sqlList([WebhookDeliveryStatus.FAILED])}) then 0 else 1 end`)]: 'asc', createdAt: 'desc', id: 'desc' },
    ...windowOf(request),
  });
  return pageOf(request, items, total);
}
