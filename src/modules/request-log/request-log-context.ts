import type { RequestScope } from '../../platform/graphql/request-scope';

/** What the request log's resolvers read of a request (src/platform/graphql/request-scope.ts). */
export type RequestLogContext = RequestScope;
