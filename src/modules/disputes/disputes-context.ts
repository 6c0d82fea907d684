import type DataLoader from 'dataloader';
import type { RequestScope } from '../../platform/graphql/request-scope';
import type { Caller } from '../../platform/http/caller';
import type { SimulatorControls } from '../../platform/processor/acquirer-inbound';
import type { Admin } from '../admins';
import type { Payment } from '../payments';

/** What the disputes module's resolvers read of a request (src/platform/graphql/request-scope.ts). */
export interface DisputesContext extends RequestScope<Caller<Admin>> {
  /** `simulator`: null with a real acquirer. */
  services: { simulator: SimulatorControls | null };
  loaders: { payment: DataLoader<string, Payment | null> };
}
