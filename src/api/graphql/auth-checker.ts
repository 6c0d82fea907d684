import type { AuthChecker } from 'type-graphql';
import type { AccountStatus } from '../../modules/identity';
import { recordRefusal, redactSecrets } from '../../modules/audit';
import { domainError } from '../../shared/errors';
import type { Admin } from '../../modules/admins';
import type { Actor } from '../http/actor';
import type { AdminDuty, GraphQLContext, Role } from './context';

const DUTIES: readonly Role[] = ['SUPPORT', 'FINANCE', 'OWNER'] satisfies AdminDuty[];

/**
 * `@Authorized('SELLER', 'FINANCE')` lets a seller or a finance admin in; `ADMIN` is any admin role (the
 * reads). A field's guard is declared where the field is. An admin refused here gets FORBIDDEN_ROLE
 * naming the role needed, and the refusal is written to the audit log (docs/admin.md).
 */
export const authChecker: AuthChecker<GraphQLContext, Role> = ({ context, info, args }, roles) => {
  const { actor } = context;
  // A session whose shop an admin deactivated or closed reads, and changes nothing (docs/dashboard.md, "Standing of a session").
  if (actor.kind === 'session' && actor.changesRefused && info.parentType.name === 'Mutation' && !context.services.accounts.sessionRules.readOnlyMayRun.has(info.fieldName)) {
    throw domainError(actor.changesRefused);
  }
  const held = rolesOf(context.actor);
  if (held.length > 0 && (roles.length === 0 || roles.some((role) => held.includes(role)))) return true;
  if (context.actor.kind !== 'admin') throw domainError(held.length > 0 ? 'FORBIDDEN' : 'UNAUTHENTICATED');
  return refuseAdmin(context, context.actor.admin, info.fieldName, roles, args);
};

function rolesOf(actor: Actor): Role[] {
  if (actor.kind === 'seller') return ['SELLER'];
  // A dashboard session is the seller too, plus what only a signed-in person may do (delete the shop, ...).
  if (actor.kind === 'session') return ['SELLER', 'SESSION'];
  if (actor.kind === 'admin') return ['ADMIN', actor.admin.role.toUpperCase() as AdminDuty];
  return [];
}

async function refuseAdmin(context: GraphQLContext, admin: Admin, operation: string, roles: Role[], args: Record<string, unknown>): Promise<never> {
  const needed = roles.filter((role) => DUTIES.includes(role)).map((role) => role.toLowerCase());
  const error = needed.length > 0 ? domainError('FORBIDDEN_ROLE', operation, needed.join(' or '), admin.role) : domainError('FORBIDDEN');
  await recordRefusal(context.em, admin, {
    action: 'access.refused',
    targetType: 'operation',
    targetId: operation,
    // The arguments as sent, each secret (password, code, token, account number …) replaced by [redacted].
    details: { code: error.code, role: admin.role, needed, arguments: redactSecrets(args) },
  });
  throw error;
}

/** The calling seller's shop; resolvers guarded by `@Authorized('SELLER')` may rely on it. */
export function sellerShop(context: GraphQLContext) {
  sellerShopId(context);
  return (context.actor as Extract<Actor, { shop: unknown }>).shop;
}

/** The calling seller's shop id, without making a reference to the shop (the hot paths need only the id). */
export function sellerShopId(context: GraphQLContext): string {
  const { actor } = context;
  if (actor.kind !== 'seller' && actor.kind !== 'session') throw domainError('FORBIDDEN');
  if (!actor.shopId) throw domainError('SHOP_NOT_FOUND');
  return actor.shopId;
}

/** The dashboard session of the caller; API keys and admin tokens are refused. */
export function currentSession(context: GraphQLContext) {
  if (context.actor.kind !== 'session') throw domainError('SESSION_REQUIRED');
  return context.actor;
}

/** The calling seller's account status (it caps a new payment): cached with an API key, read for a dashboard session. */
export async function sellerAccountStatus(context: GraphQLContext): Promise<AccountStatus> {
  const { actor } = context;
  if (actor.kind === 'seller') return actor.accountStatus;
  // A dashboard session is not on the create hot path: its seller's status is read when it is needed.
  if (actor.kind === 'session') return context.services.accounts.sessionRules.accountStatusOf(context.em, actor.sellerId);
  throw domainError('FORBIDDEN');
}

/** The calling admin; resolvers guarded by an admin role may rely on it. */
export function currentAdmin(context: GraphQLContext) {
  if (context.actor.kind !== 'admin') throw domainError('FORBIDDEN');
  return context.actor.admin;
}

/** The acting admin for the audit log, or null when a seller acts on their own shop. */
export function adminOrNull(context: GraphQLContext) {
  return context.actor.kind === 'admin' ? context.actor.admin : null;
}

/**
 * The one ownership rule: which shops a `@Authorized('SELLER', 'ADMIN')` field may reach. A seller (API key
 * or dashboard session alike) reaches their own shop only (naming another is 404, as for payments); an admin the shop they name, or every shop
 * (null) when they name none.
 */
export function shopScopeFor(context: GraphQLContext, shopId: string | null | undefined): string | null {
  if (context.actor.kind === 'seller' || context.actor.kind === 'session') {
    const own = sellerShopId(context);
    if (shopId && shopId !== own) throw domainError('SHOP_NOT_FOUND');
    return own;
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

/**
 * The admin an admin-management field is about: the caller's own (omitted or their own id), or, for an
 * owner, any admin. Anyone else naming another admin is refused like a missing role, and audited.
 */
export async function adminIdFor(context: GraphQLContext, adminId: string | null | undefined, operation: string): Promise<string> {
  const admin = currentAdmin(context);
  if (!adminId || adminId === admin.id || admin.role === 'owner') return adminId ?? admin.id;
  return refuseAdmin(context, admin, operation, ['OWNER'], { adminId });
}
