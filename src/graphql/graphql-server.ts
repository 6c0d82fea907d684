import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { unwrapResolverError } from '@apollo/server/errors';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type NextFunction, type Request, type Response } from 'express';
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import { authenticateGraphQLCaller, type RateLimits } from '../http/authenticate';
import { locals } from '../http/request-context';
import { graphqlContextOf } from './context';
import { PUBLIC_OPERATIONS, publicOperationsOnly } from './public-operations';
import { unavailableError } from '../db/unavailable';
import { bodyError, JSON_BODY_LIMIT } from '../http/body-errors';
import { DomainError, domainError } from '../shared/errors';
import type { AppServices, GraphQLContext } from './context';
import { queryGuards, type QueryLimits } from './query-guards';

/** Errors GraphQL itself raises about the request (syntax, validation, variables): safe to show. */
const CLIENT_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'BAD_REQUEST',
]);

/** Domain errors show their catalogue code; unknown errors become the spec's 500 message. */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const unwrapped = unwrapResolverError(error);
  // A domain error raised before execution (the query guards) arrives wrapped in a GraphQLError.
  const original = unwrapped instanceof GraphQLError && unwrapped.originalError instanceof DomainError ? unwrapped.originalError : unwrapped;
  if (original instanceof DomainError) {
    return { message: original.message, path: formatted.path, extensions: { code: original.code, status: original.status } };
  }
  if (CLIENT_ERROR_CODES.has(String(formatted.extensions?.code))) return formatted;
  const shown = unavailableError(original) ?? domainError('INTERNAL');
  return { message: shown.message, path: formatted.path, extensions: { code: shown.code, status: shown.status } };
}

function logUnexpectedErrors(logger: Logger): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, contextValue }) {
          for (const error of errors) {
            const original = unwrapResolverError(error);
            if (!(original instanceof DomainError) && !CLIENT_ERROR_CODES.has(String(error.extensions?.code))) {
              logger.error({ requestId: contextValue?.requestId, err: original }, 'unexpected GraphQL error');
            }
          }
        },
      };
    },
  };
}

export async function graphqlRouter(schema: GraphQLSchema, limits: RateLimits, services: AppServices, logger: Logger, queryLimits: QueryLimits) {
  const server = new ApolloServer<GraphQLContext>({
    schema,
    formatError,
    // main.ts owns shutdown (drain HTTP, then stop Apollo, then the database); Apollo's own signal
    // handler would race it and leave the process hanging.
    stopOnTerminationSignals: false,
    // Public callers must send the exact checkout document (public-operations.ts): no persisted queries.
    persistedQueries: false,
    // Introspection is answered to admins only (queryGuards), whatever NODE_ENV says.
    introspection: true,
    plugins: [ApolloServerPluginLandingPageDisabled(), logUnexpectedErrors(logger), queryGuards(queryLimits)],
  });
  await server.start();
  const router = express.Router();
  router.use(express.json({ limit: JSON_BODY_LIMIT }), authenticateGraphQLCaller(limits, services.credentials), publicOperationsOnly(PUBLIC_OPERATIONS));
  router.use(expressMiddleware(server, { context: async ({ req, res }) => graphqlContextOf(req, res, services) }));
  router.use(graphqlErrors(logger));
  return { router, stop: () => server.stop() };
}

/** Failures before GraphQL runs (credentials, rate limit, body): the GraphQL error shape, with an HTTP status. */
function graphqlErrors(logger: Logger) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const known = error instanceof DomainError ? error : bodyError(error);
    if (!known) logger.error({ requestId: locals(res).requestId, err: error }, 'unexpected error');
    const shown = known ?? unavailableError(error) ?? domainError('INTERNAL');
    if (shown.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(shown.retryAfterSeconds));
    res.status(shown.status).json({ errors: [{ message: shown.message, extensions: { code: shown.code } }] });
  };
}
