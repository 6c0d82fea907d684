import type { AuthChecker } from 'type-graphql';
import { refuseAdmin } from '../../modules/admins';
import { domainError } from '../../shared/errors';
import type { AdminDuty, Role } from '../../platform/graphql/request-scope';
import type { Actor } from '../http/actor';
import type { GraphQLContext } from './context';

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
  return refuseAdmin(context.em, context.actor.admin, info.fieldName, roles, args);
};

function rolesOf(actor: Actor): Role[] {
  if (actor.kind === 'seller') return ['SELLER'];
  // A dashboard session is the seller too, plus what only a signed-in person may do (delete the shop, ...).
  if (actor.kind === 'session') return ['SELLER', 'SESSION'];
  if (actor.kind === 'admin') return ['ADMIN', actor.admin.role.toUpperCase() as AdminDuty];
  return [];
}
