import type { ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import type { Logger } from 'pino';
import { domainErrorIn, errorAnswer } from '../../platform/http/error-answer';
import type { GraphQLContext } from './context';

/**
 * What a GraphQL error answer may say. Built from an allow-list (message, locations, path, code, status),
 * so nothing Apollo or graphql-js adds (a stack trace, an exception) reaches a caller by accident,
 * whatever NODE_ENV says; GRAPHQL_STACK_TRACES adds the trace back for local debugging only.
 */

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

/** Domain errors show their catalogue code; GraphQL's own client errors their message; anything else the spec's 500. */
export function errorFormatter(options: { stackTraces: boolean }) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const known = domainErrorIn(error);
    const code = String(formatted.extensions?.code);
    let answer: GraphQLFormattedError;
    if (!known && CLIENT_ERROR_CODES.has(code)) {
      answer = { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code } };
    } else {
      const { shown } = errorAnswer(unwrapResolverError(error));
      answer = { message: shown.message, path: formatted.path, extensions: { code: shown.code, status: shown.status } };
    }
    if (options.stackTraces && formatted.extensions?.stacktrace) answer.extensions!.stacktrace = formatted.extensions.stacktrace;
    return answer;
  };
}

/**
 * graphql-js ends a validation or input error with "Did you mean …?", naming fields and types close to
 * what was sent: for a seller that maps the admin-only schema, which introspection keeps from them.
 */
const SUGGESTION = / ?Did you mean [\s\S]*\?$/;

export function withoutSuggestion(message: string): string {
  return message.replace(SUGGESTION, '');
}

/** Only admins, who may introspect anyway, see suggestions. */
export function hideSuggestionsFromNonAdmins(): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue }) {
          if (contextValue.actor.kind === 'admin' || response.body.kind !== 'single') return;
          const { singleResult } = response.body;
          singleResult.errors = singleResult.errors?.map((e) => ({ ...e, message: withoutSuggestion(e.message) }));
        },
      };
    },
  };
}

/** The answer's first error, as sent (after the suggestions went), for the request log of a seller's key. */
export function noteAnswerErrors(): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue }) {
          const first = response.body.kind === 'single' ? response.body.singleResult.errors?.[0] : undefined;
          if (first) contextValue.noteAnswerError?.(String(first.extensions?.code ?? 'GRAPHQL_ERROR'), first.message);
        },
      };
    },
  };
}

/**
 * Unexpected errors at error level (what operators watch); documents the guards refused (introspection,
 * depth, cost: a domain error raised before execution) at warn, since a client, not the service, is at fault.
 */
export function logGraphQLErrors(logger: Logger): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, contextValue }) {
          for (const error of errors) {
            const known = domainErrorIn(error);
            const requestId = contextValue?.requestId;
            if (known && !error.path) logger.warn({ requestId, code: known.code, actor: contextValue?.actor.kind }, 'GraphQL document refused');
            else if (!known && !CLIENT_ERROR_CODES.has(String(error.extensions?.code))) {
              logger.error({ requestId, err: unwrapResolverError(error) }, 'unexpected GraphQL error');
            }
          }
        },
      };
    },
  };
}

/**
 * An execution error that says when to try again (UNAVAILABLE while the database is away) puts the wait in
 * Retry-After, as an answer refused before execution does (graphql-server.ts). The answer stays HTTP 200 in
 * GraphQL's shape; a guard that set the header already (a rate limit) keeps its own value.
 */
export function retryAfterOfErrors(): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, response }) {
          const longest = Math.max(0, ...errors.map((error) => errorAnswer(unwrapResolverError(error)).shown.retryAfterSeconds ?? 0));
          if (longest > 0 && !response.http.headers.has('retry-after')) response.http.headers.set('retry-after', String(longest));
        },
      };
    },
  };
}
