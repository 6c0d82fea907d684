export { createCardTestingGuard } from './card-testing-guard';
export { AcquirerNotificationResolver } from './acquirer-notification.resolver';
export { SettlementProposalResolver } from './settlement-proposal.resolver';
export { SettlementProposalObject } from './settlement-proposal.object';
export { startAcquirerInbox } from './acquirer-inbox';
export { issuerRedirectFor, paymentExists, returnFromIssuer } from './checkout.service';
export { startReconciliationJobs } from './reconciliation-jobs';
export { CheckoutResolver } from './checkout.resolver';
export { CHECKOUT_CSP, checkoutPageRouter } from './checkout-page';

// Types
export type { InboxDrain } from './acquirer-inbox';
export type { CheckoutDeps } from './checkout.service';
export type { ReconciliationJobs } from './reconciliation-jobs';
export type { CheckoutContext, AcquirerNotificationServices } from './checkout-context';
