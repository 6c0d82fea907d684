import { unavailableError } from '../db/unavailable';
import { DomainError, domainError } from '../../shared/errors';
import { bodyError } from './body-errors';

/** What any failure becomes for the caller, and whether operators must hear of it. */
export interface ErrorAnswer {
  /** The catalogue error the caller is told (status, message, code, Retry-After). */
  shown: DomainError;
  /** Not the caller's doing: log it at error level with the request id; the caller sees only the 500 or 503. */
  unexpected: boolean;
}

/**
 * The one rule that turns any error into its answer, for the REST envelope, the GraphQL error shape and
 * the pages alike: our own errors as the catalogue says; Express's request errors (an unreadable body, a
 * path that is not valid percent-encoding) as their documented answers; the database being away as 503;
 * anything else as the spec's 500. `malformedPath` is what a bad percent-encoding means where it happens
 * (the facade's one path parameter is the payment id: 404 Payment not found).
 */
export function errorAnswer(error: unknown, malformedPath: 'PAYMENT_NOT_FOUND' | 'ROUTE_NOT_FOUND' = 'ROUTE_NOT_FOUND'): ErrorAnswer {
  const known = domainErrorIn(error) ?? bodyError(error) ?? (isMalformedPath(error) ? domainError(malformedPath) : undefined);
  if (known) return { shown: known, unexpected: false };
  return { shown: unavailableError(error) ?? domainError('INTERNAL'), unexpected: true };
}

/** Our error, or the one GraphQL wrapped around it (a resolver's, or a guard's raised before execution). */
export function domainErrorIn(error: unknown): DomainError | undefined {
  for (let cause = error, depth = 0; cause && depth < 3; depth++) {
    if (cause instanceof DomainError) return cause;
    cause = (cause as { originalError?: unknown }).originalError;
  }
  return undefined;
}

function isMalformedPath(error: unknown): boolean {
  const { status, name } = (error ?? {}) as { status?: unknown; name?: unknown };
  return status === 400 && name === 'URIError';
}
