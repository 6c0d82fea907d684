export { Payment } from './payment.entity';
export { paymentPayload, samplePaymentPayload } from './payment-payload';
export { isPaymentId } from './payment-rules';
export { searchPayments } from './payment-search';
export { CheckoutStage, PAYMENT_STATUSES, PaymentStatus } from './payment-status';
export { countPaymentsNeedingAttention, selectCheckoutPayment } from './payment-store';
export { paymentLanguageOf, rememberPaymentLanguage } from './payment-language-store';
export { flagPaymentNeedingAttention, leaseStuckPayments } from './stuck-payment-store';
export { IDEMPOTENCY_WINDOW_MS } from './idempotency';
export { EXPIRED, expireDuePayments, expirePayment, expiryDeadline, isDueToExpire } from './payment-expiry';
export { eachPaymentExportPage, PAYMENT_EXPORT_COLUMNS } from './payment-export';
export { movePayment, paymentEvent } from './payment-moves';
export { findPayment } from './payment.service';
export { findSellerPayment } from './seller-history';

// Types
export type { PaymentSearch } from './payment-search';
export type { PaymentView } from './payment-view';
export type { CheckoutPayment } from './payment-store';
export type { PaymentsContext } from './payments-context';
