import type { NextFunction, Request, Response } from 'express';
import { adminForToken, Admin } from '../../modules/admins';
import type { RateDecision, RateLimiter } from '../../platform/rate-limit/rate-limiter';
import { DomainError, domainError } from '../../shared/errors';
import { sha256Hex } from '../../shared/secrets';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  apiKeyFromHeader,
  credentialForKeyHash,
  Shop,
  type CachedCredential,
  type CredentialCache,
  csrfTokenFor,
  endAllSessions,
  liveAdminSession,
  liveSession,
  type LiveSession,
  type SessionSettings,
} from '../../modules/identity';
import type { Actor } from './actor';
import { clientAddress, locals } from '../../platform/http/request-context';
import { CSRF_HEADER, sessionCookies, sessionTokenOf, type CookieMode } from '../../platform/http/session-cookies';
import { digestsEqual } from '../../shared/secrets';

export interface RateLimits {
  /** Per API key (spec: 100 requests per minute per key). */
  perApiKey: RateLimiter;
  /** Failed authentications per client address, so keys cannot be guessed at speed. */
  authFailuresPerClient: RateLimiter;
  /** Query cost per API key (GraphQL documents sent to /graphql; REST calls are counted by perApiKey alone). */
  graphqlCostPerApiKey: RateLimiter;
}

/**
 * Sellers: `Authorization: Bearer svc_live_…`. Counts the request against the key's budget first
 * (before any database work), then resolves the shop. Failures count against the client address.
 */
export function authenticateSeller(limits: RateLimits, credentials: CredentialCache) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const keyHash = sha256Hex(apiKeyFromHeader(req.get('authorization')));
      locals(res).apiKeyHash = keyHash;
      const decision = await limits.perApiKey.consume(keyHash);
      setRateLimitHeaders(res, decision);
      if (!decision.allowed) throw rateLimited(res, decision);
      const context = locals(res);
      const em = () => context.em;
      context.actor = sellerActor(await credentialForKeyHash(keyHash, credentials, em), em);
      context.rateLimitKey = keyHash;
      next();
    } catch (error) {
      next(await countAuthFailure(limits, req, res, error));
    }
  };
}

/** /graphql: a seller key, an admin token, a dashboard session cookie, or nobody (the public operations). */
export function authenticateGraphQLCaller(limits: RateLimits, credentials: CredentialCache, sessions: SessionCallerSettings) {
  const seller = authenticateSeller(limits, credentials);
  const session = authenticateSession({ ...sessions, requests: limits.perApiKey });
  return async (req: Request, res: Response, next: NextFunction) => {
    const authorization = req.get('authorization');
    if (!authorization) return session(req, res, next);
    const token = /^Bearer +(adm_\S+)\s*$/i.exec(authorization)?.[1];
    if (!token) return seller(req, res, next);
    // A script sends neither header; every browser sends Sec-Fetch-Site with fetch, and Origin with a POST. An admin
    // token stolen or pasted into a page must not open what the screens open only with a password and a code.
    if (req.get('sec-fetch-site') !== undefined || req.get('origin') !== undefined) return next(domainError('ADMIN_TOKEN_IN_BROWSER'));
    try {
      locals(res).actor = { kind: 'admin', ...(await adminForToken(locals(res).em, token)) };
      next();
    } catch (error) {
      next(await countAuthFailure(limits, req, res, error));
    }
  };
}

const GUESSING_CODES = new Set(['API_KEY_REQUIRED', 'INVALID_API_KEY', 'UNAUTHENTICATED']);

async function countAuthFailure(limits: RateLimits, req: Request, res: Response, error: unknown): Promise<unknown> {
  if (!(error instanceof DomainError) || !GUESSING_CODES.has(error.code)) return error;
  const decision = await limits.authFailuresPerClient.consume(clientAddress(req));
  return decision.allowed ? error : rateLimited(res, decision);
}

/** What the X-RateLimit-* headers show after `decision`. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.resetAt),
  };
}

function setRateLimitHeaders(res: Response, decision: RateDecision): void {
  for (const [name, value] of Object.entries(rateLimitHeaders(decision))) res.setHeader(name, value);
}

function rateLimited(res: Response, decision: RateDecision): DomainError {
  res.setHeader('Retry-After', String(decision.retryAfterSeconds));
  return domainError('RATE_LIMITED', decision.retryAfterSeconds);
}

/** The seller actor: its shop id, and a reference to the shop made only if something asks for it. */
function sellerActor({ shopId, accountStatus }: CachedCredential, em: () => EntityManager): Actor {
  let shop: Shop | undefined;
  return {
    kind: 'seller',
    shopId,
    accountStatus,
    get shop() {
      return (shop ??= em().getReference(Shop, shopId));
    },
  };
}

/**
 * Dashboard and admin console sessions: an httpOnly cookie names the session. A live session makes the
 * caller a `session` actor (a seller) or an `admin`, but only with the session's CSRF token in
 * X-CSRF-Token on every request (a header a cross-site form cannot send; docs/dashboard.md). A browser may
 * hold both cookies (an admin who is also a seller): the CSRF token sent says which session the page
 * speaks for. An unknown or expired session is dropped (its cookies cleared) and the request goes on as
 * the public, who may still sign in.
 */
export interface SessionCallerSettings extends SessionSettings {
  /** SESSION_COOKIES_INSECURE: the cookies' names and flags (src/platform/http/session-cookies.ts). */
  cookies: CookieMode;
  /**
   * Whether the request is a public operation (the checkout page's, sign-in …). Sent without any
   * X-CSRF-Token, such a request goes on as the public and its session cookies are not looked at: a seller
   * or admin paying on the checkout page in the browser they are signed in with is not refused, and a
   * public operation needs no session anyway.
   */
  isPublicOperation?: (req: Request) => boolean;
  /** Requests per seller per minute from their sessions, counted as a key's are (RATE_LIMIT_PER_MINUTE). */
  requests?: RateLimiter;
}

export function authenticateSession(settings: SessionCallerSettings) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const token = sessionTokenOf(req, 'seller', settings.cookies);
    const adminToken = sessionTokenOf(req, 'admin', settings.cookies);
    if (!token && !adminToken) return next();
    if (req.get(CSRF_HEADER) === undefined && settings.isPublicOperation?.(req)) return next();
    try {
      const context = locals(res);
      const csrf = String(req.get(CSRF_HEADER) ?? '');
      if (adminToken && digestsEqual(csrf, csrfTokenFor(adminToken))) {
        if (await adminSessionCaller(context, adminToken, settings)) return next();
        sessionCookies(res, settings.cookies, 'admin').clear();
        if (!token) return next();
      } else if (!token) {
        if (!(await liveAdminSession(context.em, adminToken!, settings))) {
          sessionCookies(res, settings.cookies, 'admin').clear();
          return next();
        }
        throw domainError('CSRF_TOKEN_INVALID');
      }
      const live = await liveSession(context.em, token, settings);
      if (!live) {
        sessionCookies(res, settings.cookies).clear();
        return next();
      }
      if (!digestsEqual(csrf, csrfTokenFor(token))) throw domainError('CSRF_TOKEN_INVALID');
      // Checked on every request, as an API key is: a suspended seller's sessions end here, if an admin's
      // suspension did not already end them (docs/dashboard.md, "Standing of a session").
      if (!live.sellerActive) {
        await endAllSessions(context.em, live.sellerId);
        sessionCookies(res, settings.cookies).clear();
        throw domainError('SELLER_INACTIVE');
      }
      context.rateLimitKey = `seller:${live.sellerId}`;
      if (settings.requests) {
        const decision = await settings.requests.consume(context.rateLimitKey);
        setRateLimitHeaders(res, decision);
        if (!decision.allowed) throw rateLimited(res, decision);
      }
      context.actor = sessionActor(live, () => context.em);
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** Makes the caller the admin of a live admin session (not revoked: `revoke-admin` ends their sessions too). */
async function adminSessionCaller(context: ReturnType<typeof locals>, token: string, settings: SessionSettings): Promise<boolean> {
  const live = await liveAdminSession(context.em, token, settings);
  const admin = live && (await context.em.findOne(Admin, { id: live.adminId }));
  if (!live || !admin || admin.revokedAt) return false;
  // The admin signed in with their own password and code: the session is theirs (the audit log names it).
  admin.actingWith = { kind: 'session', id: live.sessionId, issuedBy: admin.id };
  context.actor = { kind: 'admin', admin, tokenId: null, sessionId: live.sessionId };
  return true;
}

function sessionActor({ sessionId, sellerId, shopId, changesRefused }: LiveSession, em: () => EntityManager): Actor {
  let shop: Shop | undefined;
  const live = { sessionId, sellerId, shopId, changesRefused };
  return {
    kind: 'session',
    ...live,
    get shop() {
      return (shop ??= em().getReference(Shop, live.shopId!));
    },
  };
}
