import { type CheckoutPayment, CheckoutStage, PaymentStatus } from '../payments';
import type { CheckoutView } from './checkout.types';
import { shopTakesPayments } from './checkout.service';
import { failureMessageFor, shopperFailureCodeOf } from './failure-messages';
import { RETURN_TOKEN_PARAM } from './issuer-return-token';

/** The public view of a payment: what its checkout page needs and nothing about the customer. */
export function checkoutViewOf(payment: CheckoutPayment): CheckoutView {
  return {
    id: payment.id,
    amount: payment.amount,
    currency: payment.currency,
    shopName: payment.shop.name,
    status: payment.status,
    stage: payment.checkoutStage,
    // The shopper's category, never the precise reason (failure-messages.ts): that is for the seller and admins.
    failureCode: payment.status === PaymentStatus.FAILED ? shopperFailureCodeOf(payment.failureCode) : null,
    failureMessage: payment.status === PaymentStatus.FAILED ? failureMessageFor(payment.failureCode) : null,
    redirectUrl: redirectFor(payment),
    acceptingPayments: shopTakesPayments(payment),
    authenticationUrl: payment.threeDsRedirect && payment.checkoutStage === CheckoutStage.AUTHENTICATION_REQUIRED ? `/checkout/${payment.id}/3ds` : null,
  };
}

/** The way to the issuer of the browser that opened the challenge: the page's route with the challenge's token. */
export function authenticationUrlWith(authenticationUrl: string, challengeToken: string): string {
  return `${authenticationUrl}?${RETURN_TOKEN_PARAM}=${encodeURIComponent(challengeToken)}`;
}

/** Cancel leaves a pending payment pending (spec); a finished one sends the customer back with its outcome. */
export function cancelRedirectOf(payment: CheckoutPayment): string {
  if (payment.status === PaymentStatus.PENDING) return returnUrlWith(payment.returnUrl, payment.id, 'cancelled');
  return redirectFor(payment) ?? payment.returnUrl;
}

function redirectFor(payment: CheckoutPayment): string | null {
  if (payment.status === PaymentStatus.PENDING && !shopTakesPayments(payment)) return returnUrlWith(payment.returnUrl, payment.id, 'cancelled');
  if (payment.status === PaymentStatus.COMPLETED) return returnUrlWith(payment.returnUrl, payment.id, PaymentStatus.COMPLETED);
  if (payment.status === PaymentStatus.FAILED) return returnUrlWith(payment.returnUrl, payment.id, PaymentStatus.FAILED);
  return null;
}

/**
 * Spec, rule 2: the customer returns with `payment_id` (and `status`) added to the return URL's own query.
 * Sellers must still verify by retrieval or webhook: these parameters are only a hint.
 */
export function returnUrlWith(returnUrl: string, paymentId: string, status: PaymentStatus | 'cancelled'): string {
  const url = new URL(returnUrl);
  url.searchParams.set('payment_id', paymentId);
  url.searchParams.set('status', status);
  return url.toString();
}
