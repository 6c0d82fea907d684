import type { RequestScope } from '../../platform/graphql/request-scope';
import type { Caller } from '../../platform/http/caller';
import type { Logger } from '../../shared/logger';
import type { Admin } from '../admins';
import type { MailRuntime } from './mail-runtime';

/** What the notifications module's resolvers read of a request (src/platform/graphql/request-scope.ts). */
export interface NotificationsContext extends RequestScope<Caller<Admin>> {
  services: { logger: Logger; mail: Pick<MailRuntime, 'wake'> };
}
