export { AcquirerNotificationResolver } from './acquirer-notification.resolver';
export { SettlementProposalResolver } from './settlement-proposal.resolver';
export { SettlementProposalObject } from './settlement-proposal.object';
export { CheckoutResolver } from './checkout.resolver';
export { CHECKOUT_CSP, checkoutPageRouter } from './checkout-page';
