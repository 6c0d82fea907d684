export { createCardTestingGuard } from './card-testing-guard';
export { startAcquirerInbox } from './acquirer-inbox';
export { issuerRedirectFor, paymentExists, returnFromIssuer } from './checkout.service';
export { startReconciliationJobs } from './reconciliation-jobs';

// Types
export type { InboxDrain } from './acquirer-inbox';
export type { CheckoutDeps } from './checkout.service';
export type { ReconciliationJobs } from './reconciliation-jobs';
export type { CheckoutContext, AcquirerNotificationServices } from './checkout-context';
