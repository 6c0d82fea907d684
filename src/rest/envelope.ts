import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { DomainError, domainError } from '../shared/errors';
import { locals } from '../http/request-context';
import { unavailableError } from '../db/unavailable';

/** Spec, Response envelope: `{success: true, data}` (plus `pagination` on lists) or `{success: false, error}`. */
export function sendData(res: Response, data: unknown, pagination?: unknown): void {
  res.status(200).json(pagination === undefined ? { success: true, data } : { success: true, data, pagination });
}

export function sendError(res: Response, error: DomainError): void {
  if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  res.status(error.status).json({ success: false, error: error.message });
}

/** Errors of express.json(), mapped to the facade's documented answers. */
const BODY_PARSER_ERRORS: Record<string, DomainError> = {
  'entity.parse.failed': domainError('INVALID_JSON'),
  'entity.too.large': domainError('BODY_TOO_LARGE'),
  'encoding.unsupported': domainError('UNSUPPORTED_MEDIA_TYPE'),
  'charset.unsupported': domainError('UNSUPPORTED_MEDIA_TYPE'),
  'request.aborted': domainError('INVALID_JSON'),
  'request.size.invalid': domainError('INVALID_JSON'),
};

/**
 * Request errors raised by Express itself, before any handler of ours runs:
 * - express.json() labels most of its errors with a `type`. A body whose `Content-Encoding` does not decode
 *   (gzip, deflate or br that is not) comes as a bare 400 carrying zlib's error: the body is not readable JSON.
 * - The router decodes path parameters first and throws a 400 URIError for one that is not valid
 *   percent-encoding (`/payments/%zz`). The facade's one parameter is the payment id (routes.ts), and a
 *   malformed id is 404 Payment not found (README).
 */
function knownError(error: unknown): DomainError | undefined {
  if (error instanceof DomainError) return error;
  const { type, status, name, errno } = (error ?? {}) as { type?: unknown; status?: unknown; name?: unknown; errno?: unknown };
  if (typeof type === 'string') return BODY_PARSER_ERRORS[type];
  if (status !== 400) return undefined;
  if (name === 'URIError') return domainError('PAYMENT_NOT_FOUND');
  // zlib's and brotli's errors carry their library's error number.
  return typeof errno === 'number' ? domainError('INVALID_JSON') : undefined;
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
