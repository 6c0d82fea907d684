import type { RequestScope } from '../../platform/graphql/request-scope';
import type { Caller } from '../../platform/http/caller';
import type { NotificationStore } from '../../platform/processor/adyen/notification-store';
import type { SimulatorControls } from '../../platform/processor/simulated-acquirer';
import type { Admin } from '../admins';
import type { AcquirerInbox } from './acquirer-inbox';
import type { CheckoutDeps } from './checkout.service';

/** Adyen's notifications: the inbox they are accepted into, and the job that applies them (null without Adyen). */
export type AcquirerNotificationServices = { store: NotificationStore; inbox: AcquirerInbox } | null;

/** What the checkout module's resolvers read of a request (src/platform/graphql/request-scope.ts). */
export interface CheckoutContext extends RequestScope<Caller<Admin>> {
  services: {
    checkout: CheckoutDeps;
    acquirerNotifications: AcquirerNotificationServices;
    /** Null with a real acquirer. */
    simulator: SimulatorControls | null;
  };
}
