import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { DomainError } from '../../shared/errors';
import { locals } from './request-context';
import { errorAnswer } from './error-answer';

/** Spec, Response envelope: `{success: true, data}` (plus `pagination` on lists) or `{success: false, error}`. */
export function sendData(res: Response, data: unknown, pagination?: unknown): void {
  res.status(200).json(pagination === undefined ? { success: true, data } : { success: true, data, pagination });
}

export function sendError(res: Response, error: DomainError): void {
  locals(res).answeredError = { code: error.code, message: error.message };
  if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  res.status(error.status).json({ success: false, error: error.message });
}

/** The last error handler of the facade: the one error rule (http/error-answer.ts), unexpected ones logged. */
export function envelopeErrors(logger: Logger) {
  // Express recognises error handlers by their four parameters.
  return (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const { shown, unexpected } = errorAnswer(error, 'PAYMENT_NOT_FOUND');
    if (unexpected) logger.error({ requestId: locals(res).requestId, err: error }, 'unexpected error');
    sendError(res, shown);
  };
}
