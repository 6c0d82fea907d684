import type DataLoader from 'dataloader';
import type { RequestScope } from '../../platform/graphql/request-scope';
import type { BalanceSummary } from './balance-summary';

/** What the ledger reads of a shop: whose balance it is (identity's Shop fits as it is). */
interface ShopOfSeller {
  seller: { id: string };
}

/** What the ledger module's resolvers read of a request (src/platform/graphql/request-scope.ts). */
export interface LedgerContext extends RequestScope {
  loaders: { shop: DataLoader<string, ShopOfSeller | null>; balanceOfSeller: DataLoader<string, BalanceSummary> };
}
