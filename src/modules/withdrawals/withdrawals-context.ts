import type DataLoader from 'dataloader';
import type { RequestScope } from '../../platform/graphql/request-scope';
import type { Caller } from '../../platform/http/caller';
import type { Logger } from '../../shared/logger';
import type { Admin } from '../admins';
import type { SecretBox, Seller, Shop } from '../identity';

/** What the withdrawals module's resolvers read of a request (src/platform/graphql/request-scope.ts). */
export interface WithdrawalsContext extends RequestScope<Caller<Admin, Shop>> {
  services: { logger: Logger; accounts: { secrets: SecretBox } };
  loaders: {
    admin: DataLoader<string, Admin | null>;
    seller: DataLoader<string, Seller | null>;
    shop: DataLoader<string, Shop | null>;
  };
}
