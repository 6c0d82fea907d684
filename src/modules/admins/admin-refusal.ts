import type { EntityManager } from '@mikro-orm/postgresql';
import { recordRefusal, redactSecrets } from '../audit';
import { domainError } from '../../shared/errors';
import { currentAdmin, type AdminDuty, type Role } from '../../platform/graphql/request-scope';
import type { Caller } from '../../platform/http/caller';
import type { Admin } from './admin.entity';

const DUTIES: readonly Role[] = ['SUPPORT', 'FINANCE', 'OWNER'] satisfies AdminDuty[];

/**
 * Refuses an admin a field its role does not run: FORBIDDEN_ROLE naming the role needed, and the refusal written to
 * the audit log with the arguments as sent, each secret replaced by [redacted] (docs/admin.md).
 */
export async function refuseAdmin(em: EntityManager, admin: Admin, operation: string, roles: Role[], args: Record<string, unknown>): Promise<never> {
  const needed = roles.filter((role) => DUTIES.includes(role)).map((role) => role.toLowerCase());
  const error = needed.length > 0 ? domainError('FORBIDDEN_ROLE', operation, needed.join(' or '), admin.role) : domainError('FORBIDDEN');
  await recordRefusal(em, admin, {
    action: 'access.refused',
    targetType: 'operation',
    targetId: operation,
    details: { code: error.code, role: admin.role, needed, arguments: redactSecrets(args) },
  });
  throw error;
}

/**
 * The admin an admin-management field is about: the caller's own (omitted or their own id), or, for an
 * owner, any admin. Anyone else naming another admin is refused like a missing role, and audited.
 */
export async function adminIdFor(context: { em: EntityManager; actor: Caller<Admin> }, adminId: string | null | undefined, operation: string): Promise<string> {
  const admin = currentAdmin(context);
  if (!adminId || adminId === admin.id || admin.role === 'owner') return adminId ?? admin.id;
  return refuseAdmin(context.em, admin, operation, ['OWNER'], { adminId });
}
