import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { credentialForKeyHash } from '../../modules/identity';
import type { PreparedOperation } from '../graphql/operations';
import { graphqlContextOf, type AppServices } from '../graphql/context';
import { errorAnswer } from '../../platform/http/error-answer';
import { locals } from '../../platform/http/request-context';
import { domainError } from '../../shared/errors';
import type { StreamMessage, StreamRoute } from './routes';
import { STREAM_LIMITS } from './stream-limits';

/*
 * The facade's Server-Sent Events (routes.ts, StreamRoute): after the same authentication, rate limit and refusals as
 * every route, the answer stays open and the route's operation runs every second, after the cursor the last run ended
 * at; each run's messages are written as they come. The key is checked again before each run (a revoked key or a
 * suspended seller ends the stream), a comment line keeps quiet connections alive, and the stream ends after a while
 * (and when the service drains) so that clients reconnect, with `Last-Event-ID`, to a healthy instance.
 */

/** The streams open in this process: counted per shop, and ended all at once when the service drains. */
export interface OpenStreams {
  /** Counts a new stream of the shop; false when it already has as many as allowed. */
  open(shopId: string, end: () => void): (() => void) | null;
  endAll(): void;
}

export function openStreams(perShop = STREAM_LIMITS.perShop): OpenStreams {
  const counts = new Map<string, number>();
  const enders = new Set<() => void>();
  let draining = false;
  return {
    open(shopId, end) {
      const count = counts.get(shopId) ?? 0;
      if (draining || count >= perShop) return null;
      counts.set(shopId, count + 1);
      enders.add(end);
      let closed = false;
      return () => {
        if (closed) return;
        closed = true;
        enders.delete(end);
        const left = (counts.get(shopId) ?? 1) - 1;
        if (left > 0) counts.set(shopId, left);
        else counts.delete(shopId);
      };
    },
    endAll() {
      draining = true;
      for (const end of [...enders]) end();
    },
  };
}

/** One SSE message; a data line break starts another `data:` line, as the format wants. */
export function sseMessage({ id, event, data }: StreamMessage): string {
  return `id: ${id}\nevent: ${event}\n${data.split('\n').map((line) => `data: ${line}`).join('\n')}\n\n`;
}

/** Credential refusals: the stream ends on them, as a new request would be refused. */
const ENDS_STREAM = new Set(['INVALID_API_KEY', 'SHOP_INACTIVE', 'SELLER_INACTIVE']);

export interface StreamDeps {
  services: AppServices;
  logger: Logger;
  streams: OpenStreams;
  limits?: Partial<typeof STREAM_LIMITS>;
}

export function streamHandler(route: StreamRoute<unknown>, run: PreparedOperation<unknown>, deps: StreamDeps) {
  const limits = { ...STREAM_LIMITS, ...deps.limits };
  return async (req: Request, res: Response, next: NextFunction) => {
    const context = locals(res);
    if (context.actor.kind !== 'seller' || !context.rateLimitKey) return next(domainError('FORBIDDEN'));
    const keyHash = context.rateLimitKey;
    const runOnce = async (cursor: string | null) => route.stream(await run(route.variables(req, cursor), graphqlContextOf(req, res, deps.services)));
    let timer: NodeJS.Timeout | undefined;
    const end = () => {
      clearTimeout(timer);
      if (!res.writableEnded) res.end();
    };
    const close = deps.streams.open(context.actor.shopId, end);
    if (!close) return next(domainError('EVENT_STREAMS_EXCEEDED', limits.perShop));
    res.on('close', () => {
      clearTimeout(timer);
      close();
    });

    const given = req.get('last-event-id')?.trim() || null;
    let first: { cursor: string; messages: StreamMessage[] };
    try {
      first = await runOnce(given);
    } catch (error) {
      close();
      return next(error);
    }
    if (res.destroyed) return;
    if (req.method === 'HEAD') {
      res.status(200).setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      return void res.end();
    }
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    // Proxies (nginx) must pass each message on at once, not buffer the answer.
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    let lastWrite = Date.now();
    const write = (text: string) => {
      res.write(text);
      lastWrite = Date.now();
    };
    write(`retry: ${limits.reconnectMs}\n${sseMessage({ id: given ?? first.cursor, event: 'ready', data: '{}' })}`);
    for (const message of first.messages) write(sseMessage(message));
    let cursor = first.cursor;
    const endsAt = Date.now() + limits.maxDurationMs;
    let failing = false;
    /** A run that found messages is followed at once by the next: a stream far behind catches up at the client's pace. */
    let behind = first.messages.length > 0;

    const tick = async () => {
      if (res.writableEnded || res.destroyed) return;
      if (Date.now() >= endsAt) return end();
      // A client that does not read is not sent more: at most one page waits in memory for it.
      if (res.writableNeedDrain) {
        timer = setTimeout(() => void tick(), limits.pollMs);
        return;
      }
      try {
        // From the cache; a miss is read on a unit of work of its own, so a key revoked since is seen as revoked.
        await credentialForKeyHash(keyHash, deps.services.credentials, () => context.em.fork());
        const page = await runOnce(cursor);
        if (res.writableEnded || res.destroyed) return;
        for (const message of page.messages) write(sseMessage(message));
        cursor = page.cursor;
        behind = page.messages.length > 0;
        failing = false;
      } catch (error) {
        behind = false;
        const { shown, unexpected } = errorAnswer(error);
        if (ENDS_STREAM.has(shown.code)) {
          write(`event: error\ndata: ${JSON.stringify({ error: shown.message })}\n\n`);
          return end();
        }
        // The database away: the stream waits and tries again; said once, not every second.
        if (!failing) deps.logger.warn({ requestId: context.requestId, code: shown.code, err: unexpected ? (error as Error).message : undefined }, 'event stream: a run failed; trying again');
        failing = true;
      }
      if (Date.now() - lastWrite >= limits.heartbeatMs) write(': keep-alive\n\n');
      timer = setTimeout(() => void tick(), behind ? 0 : limits.pollMs);
    };
    timer = setTimeout(() => void tick(), behind ? 0 : limits.pollMs);
  };
}
