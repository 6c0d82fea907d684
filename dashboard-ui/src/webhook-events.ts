/**
 * The events a shop may choose besides payment.completed, which is always sent, and when each is sent
 * (docs/reference.md, "Choosing events"; test/unit/dashboard-webhook-events.test.ts holds this list to the server's).
 */
export const WEBHOOK_EVENT_CHOICES: readonly (readonly [event: string, when: string])[] = [
  ['payment.failed', 'a payment was declined, failed 3-D Secure or expired unpaid'],
  ['payment.refunded', 'each refund carried out'],
  ['refund.failed', 'a refund was refused, or failed after it was carried out'],
  ['withdrawal.paid', 'a withdrawal was paid to your bank account'],
  ['withdrawal.rejected', 'a withdrawal was rejected'],
];
