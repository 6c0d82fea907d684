import type { Payment } from './payment.entity';
import { newPaymentId, type CreatePaymentCommand, type Metadata } from './payment-rules';
import { PaymentStatus } from './payment-status';

/** The create-time view of a payment: the create answer, stored with an idempotency record and replayed from it. */
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

/** The scalar fields of the GraphQL `Payment` type, as plain data: what a snapshot or a hot-path SELECT can answer without an entity. */
export type PaymentFields = Pick<
  Payment,
  'id' | 'amount' | 'currency' | 'status' | 'customerEmail' | 'customerName' | 'metadata' | 'createdAt' | 'completedAt'
>;

/** A new pending payment as it will be stored and answered: id and creation time are chosen here. */
export function newPaymentSnapshot(command: CreatePaymentCommand): PaymentSnapshot {
  const { amount, currency, customerEmail, customerName, metadata } = command;
  return {
    id: newPaymentId(), amount, currency, status: PaymentStatus.PENDING, customerEmail, customerName, metadata,
    createdAt: new Date().toISOString(),
    completedAt: null,
  };
}

export function fieldsOfSnapshot(snapshot: PaymentSnapshot): PaymentFields {
  return { ...snapshot, createdAt: new Date(snapshot.createdAt) };
}
