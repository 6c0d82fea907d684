import type { Payment } from './payment.entity';
import type { Metadata } from './payment-rules';
import type { PaymentStatus } from './payment-status';

/** The create-time view of a payment, stored with an idempotency record and replayed from it. */
export interface PaymentSnapshot {
  id: string;
  amount: number;
  currency: string;
  status: PaymentStatus;
  customerEmail: string | null;
  customerName: string | null;
  metadata: Metadata;
  createdAt: string;
  completedAt: null;
}

/** Fields of the GraphQL `Payment` type that a snapshot can answer. */
export type PaymentView = Pick<
  Payment,
  'id' | 'amount' | 'currency' | 'status' | 'customerEmail' | 'customerName' | 'metadata' | 'createdAt' | 'completedAt'
>;

export function takeSnapshot(payment: Payment): PaymentSnapshot {
  const { id, amount, currency, status, customerEmail, customerName, metadata } = payment;
  return {
    id, amount, currency, status, customerEmail, customerName, metadata,
    createdAt: payment.createdAt.toISOString(),
    completedAt: null,
  };
}

export function viewOfSnapshot(snapshot: PaymentSnapshot): PaymentView {
  return { ...snapshot, createdAt: new Date(snapshot.createdAt) };
}
