import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { NamedOperations, PreparedOperation } from '../graphql/operations';
import { authenticateSeller, type RateLimits } from '../http/authenticate';
import { JSON_BODY_LIMIT } from '../../platform/http/body-errors';
import { graphqlContextOf } from '../graphql/context';
import type { AppServices } from '../graphql/context';
import { domainError } from '../../shared/errors';
import { envelopeErrors, sendData } from '../../platform/http/envelope';
import { isStreamRoute, REST_ROUTES, type Route, type RestRoute } from './routes';
import { openStreams, streamHandler, type OpenStreams, type StreamDeps } from './sse-stream';

export interface RestDeps {
  /** The operations of schema/operations/rest.graphql. */
  operations: NamedOperations;
  limits: RateLimits;
  services: AppServices;
  logger: Logger;
  /** The open event streams, ended when the service drains (one per process by default). */
  streams?: OpenStreams;
  /** How the event streams run, where the configuration differs from stream-limits.ts (EVENT_STREAM_POLL_MS). */
  streamLimits?: StreamDeps['limits'];
}

/**
 * /api/v1: authenticate and count every call, then run the route's GraphQL operation and wrap
 * its answer in the envelope. Owns HTTP concerns only: headers, JSON shape, status codes.
 */
export function restRouter(deps: RestDeps): Router {
  const prepared = prepareRoutes(REST_ROUTES, deps.operations);
  const router = Router();
  router.use(noStore);
  router.use(authenticateSeller(deps.limits, deps.services.credentials));
  const streams = deps.streams ?? openStreams();
  for (const { route, run } of prepared) {
    if (isStreamRoute(route)) {
      router.get(route.path, streamHandler(route, run, { services: deps.services, logger: deps.logger, streams, limits: deps.streamLimits }));
      continue;
    }
    const body = route.document.body ? [requireJsonContentType, express.json({ limit: JSON_BODY_LIMIT, type: () => true, strict: false })] : [];
    router[route.method](route.path, ...body, handle(route, run, deps));
  }
  for (const path of new Set(REST_ROUTES.map((r) => r.path))) {
    const allowed = REST_ROUTES.filter((r) => r.path === path).map((r) => r.method.toUpperCase());
    router.all(path, methodNotAllowed(allowed));
  }
  router.use((_req, _res, next) => next(domainError('ROUTE_NOT_FOUND')));
  router.use(envelopeErrors(deps.logger));
  return router;
}

interface PreparedRoute {
  route: RestRoute;
  run: PreparedOperation<unknown>;
}

/** Each route with its operation ready: a route naming an operation the file does not hold fails the start. */
export function prepareRoutes(routes: readonly RestRoute[], operations: Pick<NamedOperations, 'prepare'>): PreparedRoute[] {
  return routes.map((route) => ({ route, run: operations.prepare<unknown>(route.operation) }));
}

function handle(route: Route<unknown>, run: PreparedOperation<unknown>, deps: RestDeps) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const result = await run(route.variables(req), graphqlContextOf(req, res, deps.services));
      const { data: payload, pagination } = route.respond(result, res);
      sendData(res, payload, pagination);
    } catch (error) {
      next(error);
    }
  };
}

function requireJsonContentType(req: Request, _res: Response, next: NextFunction) {
  next(req.is('application/json') ? undefined : domainError('UNSUPPORTED_MEDIA_TYPE'));
}

function methodNotAllowed(allowed: string[]) {
  return (_req: Request, res: Response, next: NextFunction) => {
    const withHead = allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed;
    res.setHeader('Allow', withHead.sort().join(', '));
    next(domainError('METHOD_NOT_ALLOWED'));
  };
}

/** Payment data is private to the seller: never cached by browsers or proxies. */
function noStore(_req: Request, res: Response, next: NextFunction) {
  res.setHeader('Cache-Control', 'no-store');
  next();
}
