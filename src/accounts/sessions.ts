import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sha256Hex } from '../shared/secrets';
import { Seller } from '../shops/seller.entity';
import { Shop } from '../shops/shop.entity';
import { SellerSession } from './seller-session.entity';

export interface SessionSettings {
  /** SESSION_IDLE_TIMEOUT_MS (PCI DSS v4 8.2.8: 15 minutes at most). */
  idleTimeoutMs: number;
  /** SESSION_ABSOLUTE_TIMEOUT_MS: a session ends this long after sign-in, however busy. */
  absoluteTimeoutMs: number;
}

export interface LiveSession {
  sessionId: string;
  sellerId: string;
  /** The seller's live shop, or null after it was deleted. */
  shopId: string | null;
}

/** A fresh session for the seller: the token goes into the cookie, its hash into the table. */
export function startSession(em: EntityManager, seller: Seller): string {
  const token = randomBytes(32).toString('base64url');
  em.create(SellerSession, { seller, tokenHash: sha256Hex(token) });
  return token;
}

/**
 * The CSRF token of a session: derived from the session token, so it needs no storage, cannot be planted
 * by another site (it must match the session) and is worthless without the httpOnly session cookie.
 */
export function csrfTokenFor(sessionToken: string): string {
  return sha256Hex(`csrf:${sessionToken}`);
}

/**
 * The session a cookie names, when it is neither revoked nor past its idle or absolute timeout; its
 * last-seen time moves to now (one UPDATE, so concurrent requests cannot resurrect an expired one).
 */
export async function liveSession(em: EntityManager, token: string, settings: SessionSettings, now = new Date()): Promise<LiveSession | null> {
  const rows: { id: string; seller_id: string }[] = await em.execute(
    `update "seller_sessions" set "last_seen_at" = ?
      where "token_hash" = ? and "revoked_at" is null and "last_seen_at" > ? and "created_at" > ?
      returning "id", "seller_id"`,
    [now, sha256Hex(token), new Date(now.getTime() - settings.idleTimeoutMs), new Date(now.getTime() - settings.absoluteTimeoutMs)],
  );
  if (rows.length === 0) return null;
  const shop = await em.findOne(Shop, { seller: rows[0].seller_id, deletedAt: null }, { fields: ['id'] });
  return { sessionId: rows[0].id, sellerId: rows[0].seller_id, shopId: shop?.id ?? null };
}

/** Sign out: this session only. */
export async function endSession(em: EntityManager, sessionId: string): Promise<void> {
  await em.nativeUpdate(SellerSession, { id: sessionId, revokedAt: null }, { revokedAt: new Date() });
}

/** Sign out everywhere: every session of the seller, this one included. */
export async function endAllSessions(em: EntityManager, sellerId: string): Promise<number> {
  return em.nativeUpdate(SellerSession, { seller: sellerId, revokedAt: null }, { revokedAt: new Date() });
}

/** The seller's sessions that have not ended nor timed out, newest first (the Account screen). */
export async function liveSessionsOf(em: EntityManager, sellerId: string, settings: SessionSettings, now = new Date()): Promise<SellerSession[]> {
  return em.find(
    SellerSession,
    {
      seller: sellerId,
      revokedAt: null,
      lastSeenAt: { $gt: new Date(now.getTime() - settings.idleTimeoutMs) },
      createdAt: { $gt: new Date(now.getTime() - settings.absoluteTimeoutMs) },
    },
    { orderBy: { createdAt: 'desc' }, limit: 50 },
  );
}
