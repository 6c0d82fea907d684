import type DataLoader from 'dataloader';
import type { RequestScope } from '../../platform/graphql/request-scope';
import type { Shop } from '../identity';
import type { BalanceSummary } from './balance-summary';

/** What the ledger module's resolvers read of a request (src/platform/graphql/request-scope.ts). */
export interface LedgerContext extends RequestScope {
  loaders: { shop: DataLoader<string, Shop | null>; balanceOfSeller: DataLoader<string, BalanceSummary> };
}
