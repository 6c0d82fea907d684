import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import { authenticateGraphQLCaller, type RateLimits } from '../http/authenticate';
import { locals } from '../../platform/http/request-context';
import { graphqlContextOf } from './context';
import { isPublicOperation, PUBLIC_OPERATIONS, publicOperationsOnly } from './public-operations';
import { JSON_BODY_LIMIT } from '../../platform/http/body-errors';
import { errorAnswer } from '../../platform/http/error-answer';
import type { AppServices, GraphQLContext } from './context';
import type { GraphQLLimits } from '../../shared/config';
import { graphqlRequestsPerKey } from './concurrency-guards';
import { errorFormatter, hideSuggestionsFromNonAdmins, logGraphQLErrors, noteAnswerErrors, retryAfterOfErrors } from './error-answers';
import { queryGuards } from './query-guards';

export interface GraphQLOptions {
  queryLimits: GraphQLLimits;
  /** GRAPHQL_STACK_TRACES: stack traces in error answers, for local debugging only. */
  stackTraces: boolean;
}

export async function graphqlRouter(schema: GraphQLSchema, limits: RateLimits, services: AppServices, logger: Logger, options: GraphQLOptions) {
  const server = new ApolloServer<GraphQLContext>({
    schema,
    formatError: errorFormatter({ stackTraces: options.stackTraces }),
    // Apollo adds traces unless NODE_ENV is production or test; only our setting decides.
    includeStacktraceInErrorResponses: options.stackTraces,
    // main.ts owns shutdown (drain HTTP, then stop Apollo, then the database); Apollo's own signal
    // handler would race it and leave the process hanging.
    stopOnTerminationSignals: false,
    // Public callers must send the exact checkout document (public-operations.ts): no persisted queries.
    persistedQueries: false,
    // Introspection is answered to admins only (queryGuards), whatever NODE_ENV says.
    introspection: true,
    plugins: [ApolloServerPluginLandingPageDisabled(), logGraphQLErrors(logger), hideSuggestionsFromNonAdmins(), noteAnswerErrors(), retryAfterOfErrors(), queryGuards(options.queryLimits, limits)],
  });
  await server.start();
  const router = express.Router();
  router.use(
    express.json({ limit: JSON_BODY_LIMIT }),
    authenticateGraphQLCaller(limits, services.credentials, { ...services.accounts.sessions, cookies: services.accounts.cookies, isPublicOperation: (req) => isPublicOperation(req) }),
    publicOperationsOnly(PUBLIC_OPERATIONS),
    graphqlRequestsPerKey(options.queryLimits.requestsPerKey),
  );
  router.use(expressMiddleware(server, { context: async ({ req, res }) => graphqlContextOf(req, res, services) }));
  router.use(graphqlErrors(logger));
  return { router, stop: () => server.stop() };
}

/** Failures before GraphQL runs (credentials, rate limit, body): the GraphQL error shape, with an HTTP status. */
function graphqlErrors(logger: Logger) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const { shown, unexpected } = errorAnswer(error);
    if (unexpected) logger.error({ requestId: locals(res).requestId, err: error }, 'unexpected error');
    if (shown.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(shown.retryAfterSeconds));
    locals(res).answeredError = { code: shown.code, message: shown.message };
    res.status(shown.status).json({ errors: [{ message: shown.message, extensions: { code: shown.code } }] });
  };
}
