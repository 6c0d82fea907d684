import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccountStatus } from './account-status';
import { Seller, SellerStatus } from './seller.entity';
import { ShopStatus } from './shop.entity';

/**
 * What a dashboard session may do, given its seller's and shop's standing, checked on every request as an API
 * key's is (docs/dashboard.md, "Standing of a session"):
 * - seller suspended or inactive: the session is ended and refused (`SELLER_INACTIVE`, as the key);
 * - shop deactivated by an owner admin: the session reads, but every change is refused (`SHOP_INACTIVE_READ_ONLY`);
 * - no live shop, the last one deleted by an owner admin: the same, and no new shop (`SHOP_CLOSED_BY_ADMIN`);
 * - otherwise (active shop, or none after the seller's own deletion): everything a session may do.
 */
export type SessionChangeRefusal = 'SHOP_INACTIVE_READ_ONLY' | 'SHOP_CLOSED_BY_ADMIN';

export interface SessionStandingRow {
  sellerStatus: SellerStatus;
  /** The live (not deleted) shop's status, or null without one. */
  liveShopStatus: ShopStatus | null;
  /** Whether the seller's most recently deleted shop was deleted by an admin (null: none was deleted). */
  lastDeletedByAdmin: boolean | null;
}

export function sellerMaySignIn(row: SessionStandingRow): boolean {
  return row.sellerStatus === SellerStatus.ACTIVE;
}

/** The catalogue code every change of such a session is refused with, or null when it may change things. */
export function changeRefusalOf(row: SessionStandingRow): SessionChangeRefusal | null {
  if (row.liveShopStatus !== null) return row.liveShopStatus === ShopStatus.ACTIVE ? null : 'SHOP_INACTIVE_READ_ONLY';
  return row.lastDeletedByAdmin ? 'SHOP_CLOSED_BY_ADMIN' : null;
}

/**
 * What a read-only session may still run besides reads: ending sessions, which only takes access away (the
 * seller must be able to sign out of a shared computer). Every other mutation is refused.
 */
const READ_ONLY_SESSION_MAY_RUN: ReadonlySet<string> = new Set(['signOut', 'signOutEverywhere', 'revokeSession']);

/** A dashboard session's seller's account status (it caps a new payment), read when needed: a key's is cached. */
export async function sessionAccountStatus(em: EntityManager, sellerId: string): Promise<AccountStatus> {
  return (await em.findOneOrFail(Seller, { id: sellerId })).accountStatus;
}

/** What the GraphQL auth checker asks of a session, handed to it through the services: the platform loads no module. */
export const SESSION_RULES = { readOnlyMayRun: READ_ONLY_SESSION_MAY_RUN, accountStatusOf: sessionAccountStatus };
export type SessionRules = typeof SESSION_RULES;
