import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { DomainError, domainError } from '../shared/errors';
import { locals } from '../http/request-context';
import { unavailableError } from '../db/unavailable';
import { bodyError } from '../http/body-errors';

/** Spec, Response envelope: `{success: true, data}` (plus `pagination` on lists) or `{success: false, error}`. */
export function sendData(res: Response, data: unknown, pagination?: unknown): void {
  res.status(200).json(pagination === undefined ? { success: true, data } : { success: true, data, pagination });
}

export function sendError(res: Response, error: DomainError): void {
  if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  res.status(error.status).json({ success: false, error: error.message });
}

/**
 * Request errors raised by Express itself, before any handler of ours runs: an unreadable body
 * (body-errors.ts), or a path parameter that is not valid percent-encoding (`/payments/%zz`), which the
 * router rejects with a 400 URIError. The facade's one parameter is the payment id (routes.ts), and a
 * malformed id is 404 Payment not found (README).
 */
function knownError(error: unknown): DomainError | undefined {
  if (error instanceof DomainError) return error;
  const { status, name } = (error ?? {}) as { status?: unknown; name?: unknown };
  if (status === 400 && name === 'URIError') return domainError('PAYMENT_NOT_FOUND');
  return bodyError(error);
}

/** The last error handler of the facade: known errors as the catalogue says, anything else a logged 500. */
export function envelopeErrors(logger: Logger) {
  // Express recognises error handlers by their four parameters.
  return (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const known = knownError(error);
    if (known) return sendError(res, known);
    logger.error({ requestId: locals(res).requestId, err: error }, 'unexpected error');
    sendError(res, unavailableError(error) ?? domainError('INTERNAL'));
  };
}
