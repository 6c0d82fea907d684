import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { DomainError, domainError } from '../shared/errors';
import { locals } from '../http/request-context';

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

/** The last error handler of the facade: known errors as the catalogue says, anything else a logged 500. */
export function envelopeErrors(logger: Logger) {
  // Express recognises error handlers by their four parameters.
  return (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const known = error instanceof DomainError ? error : BODY_PARSER_ERRORS[(error as { type?: string })?.type ?? ''];
    if (known) return sendError(res, known);
    logger.error({ requestId: locals(res).requestId, err: error }, 'unexpected error');
    sendError(res, domainError('INTERNAL'));
  };
}
