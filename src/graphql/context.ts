import type { EntityManager } from '@mikro-orm/postgresql';
import type { Admin } from '../admins/admin.entity';
import type { CheckoutDeps } from '../checkout/checkout.service';
import type { Metrics } from '../observability/metrics';
import type { Logger } from '../shared/logger';
import type { Loaders } from './loaders';
import type { RefundJobs } from '../refunds/refund-jobs';
import type { CredentialCache } from '../shops/credential-cache';
import type { Shop } from '../shops/shop.entity';
import type { WebhookServices } from '../webhooks/webhook-settings.service';

/** Who is calling: a seller through its shop's API key, one of our admins, or the public checkout page. */
export type Actor =
  /** `shop` is a reference (only its id is set), made on first use: load it when more is needed. */
  | { kind: 'seller'; shopId: string; readonly shop: Shop }
  /** `tokenId`: the admin token this request came with. */
  | { kind: 'admin'; admin: Admin; tokenId: string }
  | { kind: 'public' };

/** The admin roles as `@Authorized` names them (docs/admin.md). */
export type AdminDuty = 'SUPPORT' | 'FINANCE' | 'OWNER';
/** `ADMIN`: any admin, whatever the role (the reads). */
export type Role = 'SELLER' | 'ADMIN' | AdminDuty;

/** What every request shares: built once at start. */
export interface AppServices {
  baseUrl: string;
  /** Business events (payment created, refund approved …) are logged at info with their ids. */
  logger: Logger;
  metrics: Metrics;
  checkout: CheckoutDeps;
  /** Call `credentials.invalidateShop(shopId)` after any change to a shop, its seller or its keys. */
  credentials: CredentialCache;
  webhooks: WebhookServices;
  /** Carries out approved refunds (a bull queue with Redis, in-process without; plus a periodic sweep). */
  refunds: RefundJobs;
  /** ADMIN_TOKEN_TTL_DAYS: how long a newly issued admin token is accepted. */
  adminTokenTtlDays: number;
}

/** One per request: its own unit of work (a forked EntityManager), its caller and its id. */
export interface GraphQLContext {
  em: EntityManager;
  actor: Actor;
  /** The budget a seller's requests count against (its API key's hash); null for admins and the public. */
  rateLimitKey: string | null;
  requestId: string;
  clientAddress: string;
  baseUrl: string;
  services: AppServices;
  /** This request's DataLoaders (created on first use, so REST calls that never walk relations pay nothing). */
  loaders: Loaders;
}
