import type { RequestScope } from '../../platform/graphql/request-scope';
import type { Caller } from '../../platform/http/caller';
import type { Admin } from './admin.entity';

/** What the admins module's resolvers read of a request (src/platform/graphql/request-scope.ts). */
export interface AdminsContext extends RequestScope<Caller<Admin>> {
  /** ADMIN_TOKEN_TTL_DAYS: how long a newly issued admin token is accepted. */
  services: { adminTokenTtlDays: number };
}
