import { enumOf, statesOf } from '../../platform/lifecycle/lifecycle';
import { CHECKOUT_STAGES, PAYMENT_LIFECYCLE } from './payment.lifecycle';

/**
 * The spec's `status` values, from the payment lifecycle (src/modules/payments/payment.lifecycle.ts). GraphQL
 * names them PENDING, …; REST shows the lowercase value.
 */
export const PaymentStatus = enumOf(PAYMENT_LIFECYCLE.states);
export type PaymentStatus = (typeof PaymentStatus)[keyof typeof PaymentStatus];

export const PAYMENT_STATUSES: readonly string[] = statesOf(PAYMENT_LIFECYCLE);

/** Progress of the hosted checkout while a payment is `pending`, and `finished` once it is final. */
export const CheckoutStage = enumOf(CHECKOUT_STAGES);
export type CheckoutStage = (typeof CheckoutStage)[keyof typeof CheckoutStage];

export type ThreeDsOutcome = 'frictionless' | 'challenged' | 'failed';
