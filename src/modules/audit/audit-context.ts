import type { RequestScope } from '../../platform/graphql/request-scope';
import type { Caller } from '../../platform/http/caller';
import type { Admin } from '../admins';

/** What the audit module's resolvers read of a request (src/platform/graphql/request-scope.ts). */
export type AuditContext = RequestScope<Caller<Admin>>;
