import type { EntityManager } from '@mikro-orm/postgresql';
import { domainError } from '../../shared/errors';
import type { Caller } from '../../platform/http/caller';
import type { AccountStatus } from './account-status';
import type { SessionRules } from './session-standing';

/** The calling seller's account status (it caps a new payment): cached with an API key, read for a dashboard session. */
export async function sellerAccountStatus(context: {
  em: EntityManager;
  actor: Caller<unknown, unknown, AccountStatus>;
  services: { accounts: { sessionRules: SessionRules } };
}): Promise<AccountStatus> {
  const { actor } = context;
  if (actor.kind === 'seller') return actor.accountStatus;
  // A dashboard session is not on the create hot path: its seller's status is read when it is needed.
  if (actor.kind === 'session') return context.services.accounts.sessionRules.accountStatusOf(context.em, actor.sellerId);
  throw domainError('FORBIDDEN');
}
