import type { RequestScope } from '../../platform/graphql/request-scope';
import type { Caller } from '../../platform/http/caller';
import type { AcquirerInbox, SimulatorControls } from '../../platform/processor/acquirer-inbound';
import type { Admin } from '../admins';
import type { InboxDrain } from './acquirer-inbox';
import type { CheckoutDeps } from './checkout.service';

/** The acquirer's inbox its events wait in (the port's), and the drain that applies them. */
export interface AcquirerNotificationServices {
  store: AcquirerInbox;
  inbox: InboxDrain;
}

/** What the checkout module's resolvers read of a request (src/platform/graphql/request-scope.ts). */
export interface CheckoutContext extends RequestScope<Caller<Admin>> {
  services: {
    checkout: CheckoutDeps;
    acquirerNotifications: AcquirerNotificationServices;
    /** Null with a real acquirer. */
    simulator: SimulatorControls | null;
  };
}
