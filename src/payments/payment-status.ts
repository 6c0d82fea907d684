import { registerEnumType } from 'type-graphql';

/** The spec's `status` values. GraphQL names them PENDING, …; REST shows the lowercase value. */
export enum PaymentStatus {
  PENDING = 'pending',
  COMPLETED = 'completed',
  FAILED = 'failed',
  REFUNDED = 'refunded',
}
registerEnumType(PaymentStatus, { name: 'PaymentStatus' });

export const PAYMENT_STATUSES: readonly string[] = Object.values(PaymentStatus);
