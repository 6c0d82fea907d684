import type { RequestScope } from '../../platform/graphql/request-scope';

/** What the audit module's resolvers read of a request (src/platform/graphql/request-scope.ts): its unit of work. */
export type AuditContext = RequestScope;
