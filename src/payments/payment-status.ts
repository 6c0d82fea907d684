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

/** Progress of the hosted checkout while a payment is `pending`, and `finished` once it is final. */
export enum CheckoutStage {
  CARD_REQUIRED = 'card_required',
  PROCESSING = 'processing',
  AUTHENTICATION_REQUIRED = 'authentication_required',
  FINISHED = 'finished',
}
registerEnumType(CheckoutStage, { name: 'CheckoutStage' });

export type ThreeDsOutcome = 'frictionless' | 'challenged' | 'failed';
