import type { PaymentFields } from './fragments';

/**
 * Spec, Resources/Payment: a payment as a REST body, from what the GraphQL operation answered (REST names and
 * order from the operations' aliases), with its status in lowercase as REST shows enum values. Not the payments
 * module's read shape (PaymentView): this one is JSON on its way out.
 */
export function toRestPayment<P extends PaymentFields>(payment: P) {
  return { ...payment, status: payment.status.toLowerCase() };
}
