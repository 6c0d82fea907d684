import { domainError } from './errors';
import { REASON_MAX_LENGTH } from './limits';

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
