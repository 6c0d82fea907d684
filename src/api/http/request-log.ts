import { performance } from 'node:perf_hooks';
import type { NextFunction, Request, Response } from 'express';
import type { CredentialCache } from '../../modules/identity';
import type { RequestLog } from '../../modules/request-log';
import { locals } from '../../platform/http/request-context';

/** What an answer that never went out is recorded as: nginx's "client closed request". */
const CLIENT_CLOSED = 499;

/**
 * Puts each request made with a shop's API key into the shop's request log (src/modules/request-log/) once its
 * answer is finished, or once the client went away (an event stream ends that way): one 'close' listener, which Node
 * calls after either. Nothing is done on the way in but noting the time; the entry is handed over after the answer,
 * and made and written later, in a batch. A refused key's requests are the
 * shop's only when the key was known (a 429 of a working key): the cache is asked, never the database. Dashboard
 * sessions and admins are not recorded: the log is of what an integration sent.
 */
export function recordApiRequests(log: RequestLog, source: 'rest' | 'graphql', credentials: CredentialCache) {
  return (req: Request, res: Response, next: NextFunction) => {
    const startedAt = Date.now();
    const started = performance.now();
    res.once('close', () => {
      const context = locals(res);
      const { actor } = context;
      const shopId = actor.kind === 'seller' ? actor.shopId : context.apiKeyHash ? credentials.get(context.apiKeyHash)?.shopId : undefined;
      if (!shopId) return;
      const answered = res.headersSent;
      log.record({
        shopId,
        requestId: context.requestId,
        source,
        method: req.method,
        url: req.originalUrl,
        operationName: source === 'graphql' ? (req.body as { operationName?: unknown } | undefined)?.operationName : undefined,
        status: answered ? res.statusCode : CLIENT_CLOSED,
        error: context.answeredError ?? (answered ? null : { code: 'CLIENT_CLOSED_REQUEST', message: 'The client closed the connection before the answer' }),
        idempotencyKey: req.get('idempotency-key'),
        durationMs: performance.now() - started,
        startedAt,
      });
    });
    next();
  };
}
