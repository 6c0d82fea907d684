import type { EntityManager } from '@mikro-orm/postgresql';
import { recordRefusal } from '../audit/audit.service';
import { type DomainError, domainError } from '../shared/errors';
import { REASON_MAX_LENGTH } from '../shared/limits';
import type { Admin } from './admin.entity';


/** A reason an admin gives for an action (it goes to the audit log): 1 to 500 characters after trimming. */
export function validReason(reason: string | null | undefined): string {
  const text = reason?.trim() ?? '';
  if (text === '' || [...text].length > REASON_MAX_LENGTH) throw domainError('REASON_REQUIRED');
  return text;
}

/** The same rule where a reason may be left out. */
export function optionalReason(reason: string | null | undefined): string | null {
  return reason === null || reason === undefined || reason.trim() === '' ? null : validReason(reason);
}

/**
 * Four eyes: whoever recorded a refund request or requested a withdrawal may not approve it. The services
 * enforce it in the approving UPDATE's condition; this is the refusal they answer, written to the audit log.
 */
export async function selfApprovalRefused(em: EntityManager, admin: Admin, targetType: 'refund' | 'withdrawal', targetId: string): Promise<DomainError> {
  const error = domainError('SELF_APPROVAL_NOT_ALLOWED', targetType);
  await recordRefusal(em, admin, { action: `${targetType}.approval_refused`, targetType, targetId, details: { code: error.code } });
  return error;
}
