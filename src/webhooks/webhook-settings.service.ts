import { raw, type EntityManager, type FilterQuery } from '@mikro-orm/postgresql';
import { recordAudit, type AuditRecord } from '../audit/audit.service';
import type { Actor } from '../http/actor';
import { domainError } from '../shared/errors';
import { newWebhookSecret } from '../shops/credentials';
import { Shop } from '../shops/shop.entity';
import { recordTestEvent } from './outbox';
import { WebhookDelivery, WebhookDeliveryStatus } from './webhook-delivery.entity';
import { checkWebhookUrl, type WebhookUrlPolicy } from './webhook-url';
import { pageOf, validPageRequest, windowOf } from '../shared/pagination';

/** What the webhook settings need besides the unit of work: built once at start. */
export interface WebhookServices {
  urlPolicy: WebhookUrlPolicy;
  baseUrl: string;
  /** Tells the relay a delivery is due now. */
  wake(): void;
}

/** The shop a caller may manage: a seller its own (`shopId` omitted or its own), an admin any live shop by id. */
export async function manageableShop(em: EntityManager, actor: Actor, shopId: string | null | undefined): Promise<Shop> {
  if (actor.kind === 'seller' && shopId && shopId !== actor.shop.id) throw domainError('SHOP_NOT_FOUND');
  if (actor.kind === 'public') throw domainError('UNAUTHENTICATED');
  const id = actor.kind === 'seller' ? actor.shop.id : shopId;
  if (!id) throw domainError('MISSING_FIELD', 'shopId');
  const shop = await em.findOne(Shop, { id, deletedAt: null });
  if (!shop) throw domainError('SHOP_NOT_FOUND');
  return shop;
}

/** An admin's change to a shop's webhook settings goes into the audit log, in the same transaction. */
function auditIfAdmin(tx: EntityManager, actor: Actor, record: AuditRecord): void {
  if (actor.kind === 'admin') recordAudit(tx, actor.admin, record);
}

/** Sets (checked: HTTPS, public address) or, with null or '', clears the shop's webhook URL. */
export async function setWebhookUrl(em: EntityManager, actor: Actor, shop: Shop, url: string | null, policy: WebhookUrlPolicy): Promise<Shop> {
  const trimmed = url?.trim() ?? '';
  const before = shop.webhookUrl;
  shop.webhookUrl = trimmed === '' ? null : await checkWebhookUrl(trimmed, policy);
  const action = shop.webhookUrl ? 'shop.webhook_url_set' : 'shop.webhook_url_cleared';
  auditIfAdmin(em, actor, { action, targetType: 'shop', targetId: shop.id, details: { before, after: shop.webhookUrl } });
  await em.flush();
  return shop;
}

/** A new secret, returned once; attempts from now on (retries of older events too) are signed with it. */
export async function rotateWebhookSecret(em: EntityManager, actor: Actor, shop: Shop): Promise<string> {
  const secret = newWebhookSecret();
  await em.transactional(async (tx) => {
    await tx.nativeUpdate(Shop, { id: shop.id }, { webhookSecret: secret });
    auditIfAdmin(tx, actor, { action: 'shop.webhook_secret_rotated', targetType: 'shop', targetId: shop.id });
  });
  return secret;
}

/** Queues a test delivery (a sample `payment.completed`, header `X-Service-Test: true`, one attempt). */
export async function sendTestDelivery(em: EntityManager, actor: Actor, shop: Shop, services: WebhookServices): Promise<WebhookDelivery> {
  if (!shop.webhookUrl) throw domainError('WEBHOOK_URL_NOT_SET');
  const delivery = recordTestEvent(em, shop, services.baseUrl);
  auditIfAdmin(em, actor, { action: 'shop.webhook_test_sent', targetType: 'shop', targetId: shop.id, details: { deliveryId: delivery.id, url: shop.webhookUrl } });
  await em.flush();
  services.wake();
  return delivery;
}

/** Starts a fresh schedule for a failed (or delivered) delivery: same event, same bytes, attempt numbers go on. */
export async function resendDelivery(em: EntityManager, actor: Actor, delivery: WebhookDelivery, services: WebhookServices): Promise<WebhookDelivery> {
  if (!delivery.shop.webhookUrl) throw domainError('WEBHOOK_URL_NOT_SET');
  await em.transactional(async (tx) => {
    const restarted = await tx.execute<{ id: string }[]>(
      `update "webhook_deliveries"
          set "status" = 'pending', "schedule_start" = "attempt_count", "next_attempt_at" = now(),
              "delivered_at" = null, "failed_at" = null
        where "id" = ? and "status" in ('failed', 'delivered')
        returning "id"`,
      [delivery.id],
    );
    if (restarted.length === 0) throw domainError('WEBHOOK_DELIVERY_PENDING');
    auditIfAdmin(tx, actor, {
      action: 'shop.webhook_delivery_resent',
      targetType: 'shop',
      targetId: delivery.shop.id,
      details: { deliveryId: delivery.id, eventId: delivery.event.id, paymentId: delivery.payment?.id ?? null },
    });
  });
  services.wake();
  return em.refreshOrFail(delivery, { populate: ['event', 'attempts'] });
}

/** A delivery the caller may see: any for admins, their own shop's for sellers. */
export async function findDelivery(em: EntityManager, actor: Actor, id: string): Promise<WebhookDelivery> {
  const where: FilterQuery<WebhookDelivery> = actor.kind === 'seller' ? { id, shop: actor.shop } : { id };
  const delivery = await em.findOne(WebhookDelivery, where, { populate: ['event', 'shop', 'attempts'] });
  if (!delivery) throw domainError('WEBHOOK_DELIVERY_NOT_FOUND');
  return delivery;
}

export interface DeliveryFilter {
  shopId?: string | null;
  paymentId?: string | null;
  status?: WebhookDeliveryStatus | null;
}

export interface DeliveryPage {
  items: WebhookDelivery[];
  pagination: { page: number; limit: number; total: number; pages: number };
}

/** The delivery log, failed deliveries first, then newest first; sellers see only their own shop's. */
export async function listDeliveries(
  em: EntityManager,
  actor: Actor,
  filter: DeliveryFilter,
  page: number | null | undefined,
  limit: number | null | undefined,
): Promise<DeliveryPage> {
  const request = validPageRequest(page, limit);
  const where: FilterQuery<WebhookDelivery> = {};
  if (actor.kind === 'seller') {
    if (filter.shopId && filter.shopId !== actor.shop.id) throw domainError('SHOP_NOT_FOUND');
    where.shop = actor.shop.id;
  } else if (filter.shopId) {
    where.shop = filter.shopId;
  }
  if (filter.paymentId) where.payment = filter.paymentId;
  if (filter.status) where.status = filter.status;
  const [items, total] = await em.findAndCount(WebhookDelivery, where, {
    populate: ['event', 'attempts'],
    orderBy: { [raw((alias) => `case when ${alias}."status" = 'failed' then 0 else 1 end`)]: 'asc', createdAt: 'desc', id: 'desc' },
    ...windowOf(request),
  });
  return pageOf(request, items, total);
}
