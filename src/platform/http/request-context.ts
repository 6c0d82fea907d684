import type { MikroORM } from '@mikro-orm/postgresql';
import ipaddr from 'ipaddr.js';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Caller } from './caller';
import { randomBase62 } from '../../shared/random-id';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * What every request carries through the middleware chain (Express `res.locals`). `TActor`: the caller as the
 * interface layer types it (src/api/http/actor.ts); this layer knows only its shape.
 */
export interface RequestLocals<TActor extends Caller = Caller> {
  requestId: string;
  em: EntityManager;
  actor: TActor;
  /** A seller's API key hash: the key its requests are counted under (authenticateSeller sets it). */
  rateLimitKey?: string;
  /** The path the request's log line shows, when the real one carries a secret (a refund tracking link). */
  loggedPath?: string;
  /** The hash of a well-formed API key sent, even when it was refused: the shop's request log records its 429s. */
  apiKeyHash?: string;
  /** The error the answer holds (the envelope's, or the first GraphQL error): the shop's request log records it. */
  answeredError?: { code: string; message: string };
}

export function locals<TActor extends Caller = Caller>(res: Response): RequestLocals<TActor> {
  return res.locals as RequestLocals<TActor>;
}

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Gives each request an id (the caller's X-Request-Id when it is sane), its own unit of work,
 * and one log line when it ends, with the id, so a support ticket leads straight to the log.
 */
export function requestContext(orm: MikroORM, logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && CLIENT_REQUEST_ID.test(incoming) ? incoming : `req_${randomBase62(20)}`;
    const started = process.hrtime.bigint();
    let em: EntityManager | undefined;
    // The unit of work is forked on first use: a request answered from caches and plain SQL needs none.
    Object.assign(res.locals, { requestId, actor: { kind: 'public' } });
    Object.defineProperty(res.locals, 'em', { get: () => (em ??= orm.em.fork()), enumerable: true });
    res.setHeader('X-Request-Id', requestId);
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ requestId, method: req.method, path: locals(res).loggedPath ?? req.originalUrl.split('?')[0], status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  };
}
/**
 * The address every per-client limit counts against: the peer's, or with TRUST_PROXY the client a trusted
 * proxy forwarded for (Express's `req.ip`); never read X-Forwarded-For anywhere else. An IPv6 client
 * counts as its /64, the block one subscriber is given, or it could take a fresh address per try.
 */
export function clientAddress(req: Request): string {
  const ip = req.ip;
  if (!ip || !ipaddr.isValid(ip)) return ip ?? 'unknown';
  const address = ipaddr.process(ip); // ::ffff:a.b.c.d is the IPv4 client a.b.c.d
  if (address.kind() === 'ipv4') return address.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${ip}/64`).toString()}/64`;
}
