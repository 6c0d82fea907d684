import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sha256Hex } from '../../shared/secrets';
import { prefixedId } from '../../shared/random-id';
import type { Seller } from './seller.entity';
import type { AccountKind } from './credentials';
import { changeRefusalOf, sellerMaySignIn, type SessionChangeRefusal } from './session-standing';
import { SellerSession } from './seller-session.entity';
import { insertAdminSession, revokeOtherSessions, revokeOwnedSession, revokeSession, selectActiveSessions, touchUnexpiredSession } from './session-store';
import { selectSellerStanding } from './standing-store';
import type { SessionSummary } from './session-store';
export type { SessionSummary } from './session-store';

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
  /** False once the seller is suspended or inactive: the session must be ended and refused. */
  sellerActive: boolean;
  /** Null, or why every change of this session is refused (src/modules/identity/session-standing.ts). */
  changesRefused: SessionChangeRefusal | null;
}

const USER_AGENT_MAX = 300;

/** A fresh session for the seller: the token goes into the cookie, its hash into the table. */
export function startSession(em: EntityManager, seller: Seller, userAgent: string | null = null): string {
  const token = randomBytes(32).toString('base64url');
  em.create(SellerSession, { seller, tokenHash: sha256Hex(token), userAgent: userAgent?.slice(0, USER_AGENT_MAX) ?? null });
  return token;
}

/** A fresh admin session (the admin console's sign-in); the token goes into the admin cookie. */
export async function startAdminSession(em: EntityManager, adminId: string, userAgent: string | null, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await insertAdminSession(em, prefixedId('ases', 16), adminId, sha256Hex(token), now, userAgent?.slice(0, USER_AGENT_MAX) ?? null);
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
 * Answers the session's id and its owner's.
 */
async function touchSession(em: EntityManager, kind: AccountKind, token: string, settings: SessionSettings, now: Date): Promise<{ id: string; owner: string } | null> {
  return touchUnexpiredSession(em, kind, now, sha256Hex(token), new Date(now.getTime() - settings.idleTimeoutMs), new Date(now.getTime() - settings.absoluteTimeoutMs));
}

/** A live seller session, the seller's live shop, and the standing of both (read on every request, as an API key's). */
export async function liveSession(em: EntityManager, token: string, settings: SessionSettings, now = new Date()): Promise<LiveSession | null> {
  const session = await touchSession(em, 'seller', token, settings, now);
  if (!session) return null;
  const standing = await selectSellerStanding(em, session.owner);
  return { sessionId: session.id, sellerId: session.owner, shopId: standing.shopId, sellerActive: sellerMaySignIn(standing), changesRefused: changeRefusalOf(standing) };
}

/** A live admin session: its id and the admin's. */
export async function liveAdminSession(em: EntityManager, token: string, settings: SessionSettings, now = new Date()): Promise<{ sessionId: string; adminId: string } | null> {
  const session = await touchSession(em, 'admin', token, settings, now);
  return session && { sessionId: session.id, adminId: session.owner };
}

/** Sign out: this session only. */
export async function endSession(em: EntityManager, sessionId: string, kind: AccountKind = 'seller'): Promise<void> {
  await revokeSession(em, kind, new Date(), sessionId);
}

/** Sign out everywhere: every session of the account, or all but `keep` (a password change keeps the session that made it). */
export async function endAllSessions(em: EntityManager, accountId: string, kind: AccountKind = 'seller', keep: string | null = null): Promise<number> {
  return revokeOtherSessions(em, kind, new Date(), accountId, keep ?? '');
}

/** The account's sessions that may still be live (not revoked, within both timeouts), most recently used first. */
export async function activeSessions(em: EntityManager, kind: AccountKind, accountId: string, settings: SessionSettings, now = new Date()): Promise<SessionSummary[]> {
  return selectActiveSessions(em, kind, accountId, new Date(now.getTime() - settings.idleTimeoutMs), new Date(now.getTime() - settings.absoluteTimeoutMs));
}

/** Ends one of the account's own sessions; another account's session id is "not found", never ended. */
export async function revokeOwnSession(em: EntityManager, kind: AccountKind, accountId: string, sessionId: string): Promise<boolean> {
  return revokeOwnedSession(em, kind, new Date(), sessionId, accountId);
}

/** "Firefox on Linux": enough to recognise one's own devices, without showing the whole header. */
export function userAgentSummary(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const browser =
    [
      [/Edg\//, 'Edge'],
      [/OPR\//, 'Opera'],
      [/Firefox\//, 'Firefox'],
      [/Chrom(e|ium)\//, 'Chrome'],
      [/Safari\//, 'Safari'],
      [/^curl\//, 'curl'],
    ].find(([pattern]) => (pattern as RegExp).test(userAgent))?.[1] ?? 'Unknown browser';
  const system =
    [
      [/Android/, 'Android'],
      [/iPhone|iPad|iOS/, 'iOS'],
      [/Windows/, 'Windows'],
      [/Mac OS X|Macintosh/, 'macOS'],
      [/CrOS/, 'ChromeOS'],
      [/Linux/, 'Linux'],
    ].find(([pattern]) => (pattern as RegExp).test(userAgent))?.[1];
  return system ? `${browser} on ${system}` : (browser as string);
}
