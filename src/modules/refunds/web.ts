export { RefundObject } from './refund.object';
export { PaymentRefundsResolver } from './payment-refunds.resolver';
export { RefundResolver } from './refund.resolver';
