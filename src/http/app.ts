import express, { type Express } from 'express';
import helmet from 'helmet';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { AppServices } from '../graphql/context';
import { graphqlRouter } from '../graphql/graphql-server';
import { loadOperations } from '../graphql/operations';
import { restRouter } from '../rest/rest-router';
import { sendError } from '../rest/envelope';
import { domainError } from '../shared/errors';
import type { Redis } from '../shared/redis';
import type { RateLimits } from './authenticate';
import { healthCheck } from './health';
import { requestContext } from './request-context';

export interface AppDeps {
  config: Config;
  orm: MikroORM;
  redis: Redis | undefined;
  schema: GraphQLSchema;
  limits: RateLimits;
  services: AppServices;
  logger: Logger;
}

/** The HTTP application: /healthz, the REST facade under /api/v1, GraphQL at /graphql. */
export async function createApp(deps: AppDeps): Promise<{ app: Express; stop: () => Promise<void> }> {
  const { orm, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(helmet());
  app.use(requestContext(orm, logger));
  app.get('/healthz', healthCheck(orm, deps.redis));

  const runOperation = loadOperations(deps.schema, 'rest.graphql', (error, context) =>
    logger.error({ requestId: context.requestId, err: error }, 'unexpected error in REST operation'),
  );
  app.use('/api/v1', restRouter({ runOperation, limits: deps.limits, services: deps.services, logger }));

  const graphql = await graphqlRouter(deps.schema, deps.limits, deps.services, logger);
  app.use('/graphql', graphql.router);

  app.use((_req, res) => sendError(res, domainError('ROUTE_NOT_FOUND')));
  return { app, stop: graphql.stop };
}
