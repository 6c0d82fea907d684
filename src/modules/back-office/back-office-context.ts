import type { RequestScope } from '../../platform/graphql/request-scope';
import type { Caller } from '../../platform/http/caller';
import type { Admin } from '../admins';
import type { Shop } from '../identity';
import type { Loaders } from '../loaders';

/** What the back office's resolvers read of a request (src/platform/graphql/request-scope.ts): it walks every relation. */
export interface BackOfficeContext extends RequestScope<Caller<Admin, Shop>> {
  loaders: Loaders;
}
