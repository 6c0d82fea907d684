import type { AuthChecker } from 'type-graphql';
import { domainError } from '../shared/errors';
import type { Actor } from '../http/actor';
import type { GraphQLContext, Role } from './context';

/** `@Authorized('SELLER', 'ADMIN')` lets either role in; a field's guard is declared where the field is. */
export const authChecker: AuthChecker<GraphQLContext, Role> = ({ context }, roles) => {
  const role = roleOf(context.actor);
  if (role && (roles.length === 0 || roles.includes(role))) return true;
  throw domainError(role ? 'FORBIDDEN' : 'UNAUTHENTICATED');
};

function roleOf(actor: Actor): Role | null {
  if (actor.kind === 'seller') return 'SELLER';
  if (actor.kind === 'admin') return 'ADMIN';
  return null;
}

/** The calling seller's shop; resolvers guarded by `@Authorized('SELLER')` may rely on it. */
export function sellerShop(context: GraphQLContext) {
  if (context.actor.kind !== 'seller') throw domainError('FORBIDDEN');
  return context.actor.shop;
}

/** The calling seller's shop id, without making a reference to the shop (the hot paths need only the id). */
export function sellerShopId(context: GraphQLContext): string {
  if (context.actor.kind !== 'seller') throw domainError('FORBIDDEN');
  return context.actor.shopId;
}

/** The calling admin; resolvers guarded by `@Authorized('ADMIN')` may rely on it. */
export function currentAdmin(context: GraphQLContext) {
  if (context.actor.kind !== 'admin') throw domainError('FORBIDDEN');
  return context.actor.admin;
}

/** The acting admin for the audit log, or null when a seller acts on their own shop. */
export function adminOrNull(context: GraphQLContext) {
  return context.actor.kind === 'admin' ? context.actor.admin : null;
}

/**
 * The one ownership rule: which shops a `@Authorized('SELLER', 'ADMIN')` field may reach. A seller reaches
 * their own shop only (naming another is 404, as for payments); an admin the shop they name, or every shop
 * (null) when they name none.
 */
export function shopScopeFor(context: GraphQLContext, shopId: string | null | undefined): string | null {
  if (context.actor.kind === 'seller') {
    if (shopId && shopId !== context.actor.shopId) throw domainError('SHOP_NOT_FOUND');
    return context.actor.shopId;
  }
  if (context.actor.kind !== 'admin') throw domainError('UNAUTHENTICATED');
  return shopId ?? null;
}

/** The same rule where the field is about exactly one shop: an admin must name it. */
export function shopIdFor(context: GraphQLContext, shopId: string | null | undefined): string {
  const scope = shopScopeFor(context, shopId);
  if (!scope) throw domainError('MISSING_FIELD', 'shopId');
  return scope;
}
