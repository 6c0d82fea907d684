import type DataLoader from 'dataloader';
import type { RequestScope } from '../../platform/graphql/request-scope';
import type { Caller } from '../../platform/http/caller';
import type { Logger } from '../../shared/logger';
import type { AccountStatus, PaymentMaximums, SessionRules, Shop } from '../identity';
import type { ExpiryDeps } from './payment-expiry';

/** What the payments module's resolvers read of a request (src/platform/graphql/request-scope.ts). */
export interface PaymentsContext extends RequestScope<Caller<unknown, Shop, AccountStatus>> {
  services: {
    logger: Logger;
    /** The checkout's settings, of which a read needs the expiry's. */
    checkout: ExpiryDeps;
    paymentMaximums: PaymentMaximums;
    accounts: { sessionRules: SessionRules };
  };
  loaders: { shop: DataLoader<string, Shop | null> };
}
