import type { PaymentView } from './payment-view';
import { checkoutUrlFor } from './payment-rules';

/**
 * The spec's retrieve payload of a payment, for webhook bodies (real and test deliveries alike). The REST
 * facade answers the same shape through the aliases of schema/operations/rest.graphql; a test
 * (test/integration/webhook-delivery.test.ts) holds the two to each other, byte for byte.
 */
export function paymentPayload(payment: PaymentView, baseUrl: string) {
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
