import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { SecretBox } from './secret-box';
import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { Admin } from '../admins';
import { optionalReason, validReason } from '../../shared/reason';
import { moveAuditor, recordAudit, type AuditRecord } from '../audit';
import { applyMove } from '../../platform/lifecycle/apply-move';
import { isNewAccountAddress, normalEmail } from '../../shared/email';
import { domainError } from '../../shared/errors';
import { AccountStatus } from './account-status';
import { SELLER_ACCOUNT_LIFECYCLE } from './seller-account.lifecycle';
import { SELLER_LIFECYCLE } from './seller.lifecycle';
import { SHOP_LIFECYCLE } from './shop.lifecycle';
import { ApiKey } from './api-key.entity';
import type { CredentialCache } from './credential-cache';
import { Seller, SellerStatus } from './seller.entity';
import { createSellerWithShop, createShopForSeller, type NewShop } from './shop-provisioning';
import { Shop, ShopStatus } from './shop.entity';
import { endAllSessions } from './sessions';
import { validWebhookEvents } from './webhook-event-choice';
import { validPageRequest, pageOf, windowOf, type Page } from '../../shared/pagination';
import { SHOP_NAME_MAX_LENGTH } from '../../shared/limits';
import { ShopOrder } from '../../shared/list-order';


export interface ShopRequest {
  shopName: string;
  webhookUrl?: string | null;
  /** Events sent besides payment.completed (none when absent). */
  webhookEvents?: readonly string[] | null;
}

/** What the seller and shop life cycle needs besides the unit of work. */
export interface ShopAdminDeps {
  credentials: CredentialCache;
  /** Webhooks' URL rule (SSRF), handed in since webhooks read shops: answers the URL to store, or refuses it. */
  checkWebhookUrl: (url: string) => Promise<string>;
  /** Seals each new shop's webhook secret. */
  secrets: SecretBox;
}

/** A valid address in its normal form (NFKC, trimmed, lower case, one script: src/shared/email.ts), as every seller's is stored. */
export function validSellerEmail(email: string): string {
  const text = normalEmail(email);
  if (!isNewAccountAddress(text)) throw domainError('EMAIL_INVALID');
  return text;
}

export function validShopName(name: string): string {
  const text = name?.trim() ?? '';
  if (text === '' || [...text].length > SHOP_NAME_MAX_LENGTH) throw domainError('SHOP_NAME_INVALID');
  return text;
}

async function validShopRequest(request: ShopRequest, checkWebhookUrl: ShopAdminDeps['checkWebhookUrl']): Promise<{ shopName: string; webhookUrl: string | null; webhookEvents: string[] }> {
  const shopName = validShopName(request.shopName);
  const url = request.webhookUrl?.trim();
  const webhookEvents = validWebhookEvents(request.webhookEvents ?? []);
  if (!webhookEvents) throw domainError('WEBHOOK_EVENT_UNKNOWN');
  return { shopName, webhookUrl: url ? await checkWebhookUrl(url) : null, webhookEvents };
}

/** A seller account and its one shop; the key and webhook secret are in this answer only. */
export async function createSellerAndShop(em: EntityManager, admin: Admin, email: string, request: ShopRequest, deps: ShopAdminDeps): Promise<NewShop> {
  const address = validSellerEmail(email);
  const shop = await validShopRequest(request, deps.checkWebhookUrl);
  if (await em.count(Seller, { email: address })) throw domainError('EMAIL_TAKEN');
  try {
    return await em.transactional(async (tx) => {
      const created = await createSellerWithShop(tx, { email: address, ...shop }, deps.secrets);
      recordAudit(tx, admin, { action: 'seller.created', targetType: 'seller', targetId: created.seller.id, details: { email: address, shopId: created.shop.id, shopName: shop.shopName } });
      return created;
    });
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException && /sellers_email_unique/.test(error.message)) throw domainError('EMAIL_TAKEN');
    throw error;
  }
}

/**
 * A new shop for a seller whose shop was deleted; refused while the seller has a live shop (one per seller).
 * The seller's own (`admin` null, from the dashboard) is refused too for a suspended seller, and when an
 * owner admin deleted the last shop: only an admin may open the shop an admin closed.
 */
export async function createShopForExistingSeller(em: EntityManager, admin: Admin | null, sellerId: string, request: ShopRequest, deps: ShopAdminDeps): Promise<NewShop> {
  const seller = await findSeller(em, sellerId);
  const shop = await validShopRequest(request, deps.checkWebhookUrl);
  if (await em.count(Shop, { seller: seller.id, deletedAt: null })) throw domainError('SELLER_ALREADY_HAS_SHOP');
  if (!admin && seller.status !== SellerStatus.ACTIVE) throw domainError('SELLER_INACTIVE');
  if (!admin && (await lastShopClosedByAdmin(em, seller.id))) throw domainError('SHOP_CLOSED_BY_ADMIN');
  try {
    return await em.transactional(async (tx) => {
      const created = await createShopForSeller(tx, seller, shop, deps.secrets);
      // null: the seller's own new shop from the dashboard, not an admin action.
      if (admin) recordAudit(tx, admin, { action: 'shop.created', targetType: 'shop', targetId: created.shop.id, details: { sellerId: seller.id, shopName: shop.shopName } });
      return created;
    });
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException && /shops_one_live_shop_per_seller/.test(error.message)) {
      throw domainError('SELLER_ALREADY_HAS_SHOP');
    }
    throw error;
  }
}

/** Whether the seller's most recently deleted shop was deleted by an owner admin. */
async function lastShopClosedByAdmin(em: EntityManager, sellerId: string): Promise<boolean> {
  const last = await em.findOne(Shop, { seller: sellerId, deletedAt: { $ne: null } }, { orderBy: { deletedAt: 'desc', id: 'desc' }, fields: ['deletedByAdmin'] });
  return last?.deletedByAdmin ?? false;
}

async function liveShop(em: EntityManager, shopId: string): Promise<Shop> {
  const shop = await findShop(em, shopId);
  if (shop.deletedAt) throw domainError('SHOP_DELETED');
  return shop;
}

/** One admin change of a shop or seller: the write and its audit entry commit together, or neither does. */
async function writeAudited(em: EntityManager, admin: Admin, record: AuditRecord, write: (tx: EntityManager) => Promise<unknown>): Promise<void> {
  await em.transactional(async (tx) => {
    await write(tx);
    recordAudit(tx, admin, record);
  });
}

/**
 * Deactivates or reactivates a shop (its key answers 401 `Shop is inactive` meanwhile). The credential
 * cache is told after the commit, here and through Redis in every other instance, so the key's next
 * request already sees the change. Deactivating also ends the seller's dashboard sessions; a new sign-in
 * reads but changes nothing until the shop is reactivated (docs/dashboard.md, "Standing of a session").
 */
export async function setShopStatus(em: EntityManager, admin: Admin, shopId: string, status: ShopStatus, reason: string | null | undefined, deps: ShopAdminDeps): Promise<Shop> {
  const text = status === ShopStatus.INACTIVE ? validReason(reason) : optionalReason(reason);
  const shop = await liveShop(em, shopId);
  const before = shop.status;
  await em.transactional(async (tx) => {
    await applyMove(tx, SHOP_LIFECYCLE, Shop, status === ShopStatus.INACTIVE ? 'deactivate' : 'reactivate', {
      id: shop.id,
      effects: { audit: { by: moveAuditor(admin), reason: text, details: (moved) => ({ before, after: moved.status }) } },
    });
    if (status === ShopStatus.INACTIVE) await endAllSessions(tx, shop.seller.id);
  });
  await deps.credentials.invalidateShop(shop.id);
  return em.refreshOrFail(shop);
}

/**
 * Soft-deletes a shop and revokes its keys: they answer 401 `Invalid API key` from the next request on.
 * Its payments, ledger and withdrawals stay; an owner admin may give the seller a new shop, the seller may
 * not (marked `deleted_by_admin`). The seller's dashboard sessions end.
 */
export async function deleteShop(em: EntityManager, admin: Admin, shopId: string, reason: string, deps: ShopAdminDeps): Promise<Shop> {
  const text = validReason(reason);
  const shop = await liveShop(em, shopId);
  await writeAudited(em, admin, { action: 'shop.deleted', targetType: 'shop', targetId: shop.id, reason: text }, async (tx) => {
    await softDeleteShop(tx, shop.id, true);
    await endAllSessions(tx, shop.seller.id);
  });
  return keysStopped(em, shop, deps);
}

/**
 * The seller deletes their own shop from the dashboard (spec: what to do with a lost or leaked key), after
 * typing its name: the same soft delete as an admin's, keys refused at once on every instance. Not in the
 * admin audit log (no admin acted); the resolver logs it with the seller id.
 */
export async function deleteOwnShop(em: EntityManager, shopId: string, typedName: string, deps: ShopAdminDeps): Promise<Shop> {
  const shop = await liveShop(em, shopId);
  if ((typedName ?? '').trim() !== shop.name) throw domainError('SHOP_NAME_MISMATCH');
  await em.transactional((tx) => softDeleteShop(tx, shop.id, false));
  return keysStopped(em, shop, deps);
}

/**
 * The soft delete itself: the shop marked deleted (by an owner admin or not) and its keys revoked, in the
 * caller's transaction. Tell the credential cache after the commit.
 */
export async function softDeleteShop(tx: EntityManager, shopId: string, byAdmin: boolean): Promise<void> {
  const now = new Date();
  await tx.nativeUpdate(Shop, { id: shopId, deletedAt: null }, { deletedAt: now, deletedByAdmin: byAdmin });
  await tx.nativeUpdate(ApiKey, { shop: shopId, revokedAt: null }, { revokedAt: now });
}

/** After the commit: every instance's credential cache forgets the shop, so its keys stop at the next request. */
async function keysStopped(em: EntityManager, shop: Shop, deps: ShopAdminDeps): Promise<Shop> {
  await deps.credentials.invalidateShop(shop.id);
  return em.refreshOrFail(shop);
}

/**
 * Suspends a seller (403 `Seller account inactive` for its keys) or makes it active again. A suspension ends
 * the seller's dashboard sessions in the same transaction (and a session is refused anyway while the seller
 * is not active: docs/dashboard.md, "Standing of a session").
 */
export async function setSellerStatus(em: EntityManager, admin: Admin, sellerId: string, status: SellerStatus.ACTIVE | SellerStatus.SUSPENDED, reason: string | null | undefined, deps: ShopAdminDeps): Promise<Seller> {
  const text = status === SellerStatus.ACTIVE ? optionalReason(reason) : validReason(reason);
  const seller = await findSeller(em, sellerId);
  const before = seller.status;
  await em.transactional(async (tx) => {
    await applyMove(tx, SELLER_LIFECYCLE, Seller, status === SellerStatus.ACTIVE ? 'reactivate' : 'suspend', {
      id: seller.id,
      effects: { audit: { by: moveAuditor(admin), reason: text, details: (moved) => ({ before, after: moved.status }) } },
    });
    if (status !== SellerStatus.ACTIVE) await endAllSessions(tx, seller.id);
  });
  await invalidateSellerShops(em, seller.id, deps);
  return em.refreshOrFail(seller);
}

/**
 * Sets a seller's account status, which caps each payment's amount (docs/admin.md). Always with a reason,
 * in the audit log; the credential cache is told after the commit, so the next create already sees it.
 */
export async function setSellerAccountStatus(em: EntityManager, admin: Admin, sellerId: string, accountStatus: AccountStatus, reason: string, deps: ShopAdminDeps): Promise<Seller> {
  const text = validReason(reason);
  const seller = await findSeller(em, sellerId);
  const before = seller.accountStatus;
  await applyMove(em, SELLER_ACCOUNT_LIFECYCLE, Seller, ACCOUNT_MOVES[accountStatus], {
    id: seller.id,
    effects: { audit: { by: moveAuditor(admin), reason: text, details: (moved) => ({ before, after: moved.accountStatus }) } },
  });
  await invalidateSellerShops(em, seller.id, deps);
  return em.refreshOrFail(seller);
}

/** The account status table's move to each status. */
const ACCOUNT_MOVES: Record<AccountStatus, keyof typeof SELLER_ACCOUNT_LIFECYCLE.moves> = {
  [AccountStatus.NEW]: 'markNew',
  [AccountStatus.VERIFIED]: 'verify',
  [AccountStatus.RESTRICTED]: 'restrict',
};

async function invalidateSellerShops(em: EntityManager, sellerId: string, deps: ShopAdminDeps): Promise<void> {
  const shops = await em.find(Shop, { seller: sellerId }, { fields: ['id'] });
  await Promise.all(shops.map((shop) => deps.credentials.invalidateShop(shop.id)));
}

export interface ShopFilter {
  status?: ShopStatus | null;
  /** Part of the shop's name or its seller's e-mail address (case-insensitive). */
  search?: string | null;
  includeDeleted?: boolean | null;
}

/** How each order sorts the shops; ties broken by id so pages never overlap. */
const SHOP_ORDER_BY: Record<ShopOrder, Record<string, 'asc' | 'desc'>> = {
  [ShopOrder.NEWEST_FIRST]: { createdAt: 'desc', id: 'desc' },
  [ShopOrder.OLDEST_FIRST]: { createdAt: 'asc', id: 'asc' },
  [ShopOrder.NAME_A_TO_Z]: { name: 'asc', id: 'asc' },
  [ShopOrder.NAME_Z_TO_A]: { name: 'desc', id: 'desc' },
};

/** Shops for the console, newest first unless asked otherwise. */
export async function listShops(em: EntityManager, filter: ShopFilter, page?: number | null, limit?: number | null, order?: ShopOrder | null): Promise<Page<Shop>> {
  const request = validPageRequest(page, limit);
  const where: FilterQuery<Shop> = {};
  if (!filter.includeDeleted) where.deletedAt = null;
  if (filter.status) where.status = filter.status;
  const search = filter.search?.trim();
  if (search) {
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.$or = [{ name: { $ilike: pattern } }, { seller: { email: { $ilike: pattern } } }];
  }
  const [items, total] = await em.findAndCount(Shop, where, { orderBy: SHOP_ORDER_BY[order ?? ShopOrder.NEWEST_FIRST], ...windowOf(request) });
  return pageOf(request, items, total);
}

export function findShop(em: EntityManager, id: string): Promise<Shop> {
  return em.findOneOrFail(Shop, { id }, { failHandler: () => domainError('SHOP_NOT_FOUND') });
}

export function findSeller(em: EntityManager, id: string): Promise<Seller> {
  return em.findOneOrFail(Seller, { id }, { failHandler: () => domainError('SELLER_NOT_FOUND') });
}
