import type { Payment } from './payment.entity';
import { checkoutUrlFor } from './payment-rules';

/**
 * The spec's retrieve payload of a payment, built from the entity. The REST facade builds the same shape
 * from GraphQL results (src/rest/payment-view.ts); webhook bodies use this one, serialized once.
 */
export function paymentPayload(payment: Payment, baseUrl: string) {
  return {
    id: payment.id,
    amount: payment.amount,
    currency: payment.currency,
    status: payment.status,
    checkout_url: checkoutUrlFor(baseUrl, payment.id),
    customer_email: payment.customerEmail,
    customer_name: payment.customerName,
    metadata: payment.metadata,
    created_at: payment.createdAt.toISOString(),
    completed_at: payment.completedAt?.toISOString() ?? null,
  };
}
