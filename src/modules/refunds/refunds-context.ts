import type DataLoader from 'dataloader';
import type { RequestScope } from '../../platform/graphql/request-scope';
import type { Caller } from '../../platform/http/caller';
import type { Logger } from '../../shared/logger';
import type { Admin } from '../admins';
import type { Payment } from '../payments';
import type { Refund } from './refund.entity';
import type { RefundJobs } from './refund-jobs';

/** What the refunds module's resolvers read of a request (src/platform/graphql/request-scope.ts). */
export interface RefundsContext extends RequestScope<Caller<Admin>> {
  services: { logger: Logger; refunds: RefundJobs };
  loaders: {
    admin: DataLoader<string, Admin | null>;
    payment: DataLoader<string, Payment | null>;
    refundsOfPayment: DataLoader<string, Refund[]>;
    chargebackStands: DataLoader<string, boolean>;
  };
}
