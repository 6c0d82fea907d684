import type { EntityManager } from '@mikro-orm/postgresql';
import { domainError } from '../../shared/errors';
import type { Caller } from '../http/caller';
import type { SessionCookies } from '../http/session-cookies';

/**
 * What a resolver gets of one request, whoever serves it: its own unit of work (a forked EntityManager), its caller
 * and its id. A module's resolvers take a narrow context of their own, this plus `services` and `loaders` holding
 * only what the module uses; the interface layer's context (src/api/graphql/context.ts) has them all and satisfies
 * every module's structurally, so no module names it.
 */
export interface RequestScope<TActor extends Caller = Caller> {
  em: EntityManager;
  actor: TActor;
  /** The budget a seller's requests count against (its API key's hash); null for admins and the public. */
  rateLimitKey: string | null;
  requestId: string;
  clientAddress: string;
  /** The caller's User-Agent and Accept headers (3-D Secure's browser data; never stored). */
  browserHeaders: { userAgent: string; accept: string; acceptLanguage: string };
  baseUrl: string;
  /** Sets or clears the dashboard session cookies on this request's answer. */
  sessionCookies: SessionCookies;
  /** The same for the admin console's session cookies. */
  adminSessionCookies: SessionCookies;
  /** The User-Agent header (kept with a new session, for "active sessions"). */
  userAgent: string | null;
  /** This browser's known-device cookie (src/platform/http/device-cookie.ts): the token it sent, and setting a new one. */
  knownDevice: { token: string | null; remember(token: string): void };
  /** Tells the request log what the answer's first error says (/graphql only: the REST envelope tells it itself). */
  noteAnswerError?(code: string, message: string): void;
}

/** The admin roles as `@Authorized` names them (docs/admin.md). */
export type AdminDuty = 'SUPPORT' | 'FINANCE' | 'OWNER';
/**
 * The names `@Authorized(...)` takes on a field: data the interface layer's auth checker reads. `ADMIN`: any admin,
 * whatever the role (the reads). SESSION: a dashboard session only (it also holds SELLER); for what an API key must
 * not do or read.
 */
export type Role = 'SELLER' | 'SESSION' | 'ADMIN' | AdminDuty;

type Scoped<TActor extends Caller = Caller> = { actor: TActor };

/** The calling seller's shop; resolvers guarded by `@Authorized('SELLER')` may rely on it. */
export function sellerShop<TShop>(context: Scoped<Caller<unknown, TShop>>): TShop {
  sellerShopId(context);
  return (context.actor as Extract<Caller<unknown, TShop>, { shop: unknown }>).shop;
}

/** The calling seller's shop id, without making a reference to the shop (the hot paths need only the id). */
export function sellerShopId(context: Scoped): string {
  const { actor } = context;
  if (actor.kind !== 'seller' && actor.kind !== 'session') throw domainError('FORBIDDEN');
  if (!actor.shopId) throw domainError('SHOP_NOT_FOUND');
  return actor.shopId;
}

/** The dashboard session of the caller; API keys and admin tokens are refused. */
export function currentSession<TShop>(context: Scoped<Caller<unknown, TShop>>) {
  if (context.actor.kind !== 'session') throw domainError('SESSION_REQUIRED');
  return context.actor;
}

/** The calling admin; resolvers guarded by an admin role may rely on it. */
export function currentAdmin<TAdmin>(context: Scoped<Caller<TAdmin>>): TAdmin {
  if (context.actor.kind !== 'admin') throw domainError('FORBIDDEN');
  return context.actor.admin;
}

/** The acting admin for the audit log, or null when a seller acts on their own shop. */
export function adminOrNull<TAdmin>(context: Scoped<Caller<TAdmin>>): TAdmin | null {
  return context.actor.kind === 'admin' ? context.actor.admin : null;
}

/**
 * The one ownership rule: which shops a `@Authorized('SELLER', 'ADMIN')` field may reach. A seller (API key
 * or dashboard session alike) reaches their own shop only (naming another is 404, as for payments); an admin the shop they name, or every shop
 * (null) when they name none.
 */
export function shopScopeFor(context: Scoped, shopId: string | null | undefined): string | null {
  if (context.actor.kind === 'seller' || context.actor.kind === 'session') {
    const own = sellerShopId(context);
    if (shopId && shopId !== own) throw domainError('SHOP_NOT_FOUND');
    return own;
  }
  if (context.actor.kind !== 'admin') throw domainError('UNAUTHENTICATED');
  return shopId ?? null;
}

/** The same rule where the field is about exactly one shop: an admin must name it. */
export function shopIdFor(context: Scoped, shopId: string | null | undefined): string {
  const scope = shopScopeFor(context, shopId);
  if (!scope) throw domainError('MISSING_FIELD', 'shopId');
  return scope;
}
