export { PaymentObject } from './payment.object';
export { PaymentList } from './payment.types';
export { LiveTestResolver } from './live-test.resolver';
export { PaymentHistoryResolver } from './payment-history.resolver';
export { PaymentResolver } from './payment.resolver';
