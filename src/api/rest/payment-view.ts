import type { PaymentFields } from './fragments';

/**
 * Spec, Resources/Payment: the payment as GraphQL answers it (REST names and order from the operations'
 * aliases), with its status in lowercase as REST shows enum values.
 */
export function paymentView<P extends PaymentFields>(payment: P) {
  return { ...payment, status: payment.status.toLowerCase() };
}
