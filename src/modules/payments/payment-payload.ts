import { randomBase62 } from '../../shared/random-id';
import type { PaymentView } from './payment-view';
import { checkoutUrlFor } from './payment-rules';
import { PaymentStatus } from './payment-status';

/**
 * The spec's retrieve payload of a payment, for webhook bodies (real and test deliveries alike). The REST
 * facade answers the same shape through the aliases of schema/operations/rest.graphql; a test
 * (test/integration/webhooks/webhook-delivery.test.ts) holds the two to each other, byte for byte.
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

/**
 * The payload of a test delivery: a payment created `at` (completed, unless `status` says otherwise), which does not
 * exist (its id starts `pay_TEST`). Handed to the outbox at start (WebhookServices), as every payment payload is.
 */
export function samplePaymentPayload(baseUrl: string, at: Date, status: PaymentStatus = PaymentStatus.COMPLETED) {
  const sample: PaymentView = {
    id: `pay_TEST${randomBase62(20)}`,
    amount: 5000,
    currency: 'usd',
    status,
    customerEmail: 'customer@example.com',
    customerName: 'Test Customer',
    metadata: { order_id: 'test-order' },
    createdAt: at,
    completedAt: status === PaymentStatus.COMPLETED || status === PaymentStatus.REFUNDED ? at : null,
  };
  return paymentPayload(sample, baseUrl);
}
