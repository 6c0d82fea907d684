import { type CheckoutPayment, CheckoutStage, PaymentStatus } from '../payments';
import type { CheckoutView } from './checkout.types';
import { shopTakesPayments } from './checkout.service';
import { failureMessageFor, shopperFailureCodeOf } from './failure-messages';
import { RETURN_TOKEN_PARAM } from './issuer-return-token';

/**
 * The public view of a payment: what its checkout page needs and nothing about the customer. `testMode`: the simulated
 * acquirer runs (a return URL on the customer's own machine is then followed over http: `followedReturnUrl`).
 */
export function checkoutViewOf(payment: CheckoutPayment, testMode: boolean): CheckoutView {
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
    redirectUrl: redirectFor(payment, testMode),
    acceptingPayments: shopTakesPayments(payment),
    authenticationUrl: payment.threeDsRedirect && payment.checkoutStage === CheckoutStage.AUTHENTICATION_REQUIRED ? `/checkout/${payment.id}/3ds` : null,
  };
}

/** The way to the issuer of the browser that opened the challenge: the page's route with the challenge's token. */
export function authenticationUrlWith(authenticationUrl: string, challengeToken: string): string {
  return `${authenticationUrl}?${RETURN_TOKEN_PARAM}=${encodeURIComponent(challengeToken)}`;
}

/** Cancel leaves a pending payment pending (spec); a finished one sends the customer back with its outcome. */
export function cancelRedirectOf(payment: CheckoutPayment, testMode: boolean): string {
  if (payment.status === PaymentStatus.PENDING) return followedReturnUrl(returnUrlWith(payment.returnUrl, payment.id, 'cancelled'), testMode);
  return redirectFor(payment, testMode) ?? followedReturnUrl(payment.returnUrl, testMode);
}

function redirectFor(payment: CheckoutPayment, testMode: boolean): string | null {
  const status =
    payment.status === PaymentStatus.PENDING && !shopTakesPayments(payment) ? 'cancelled'
    : payment.status === PaymentStatus.COMPLETED || payment.status === PaymentStatus.FAILED ? payment.status
    : null;
  return status === null ? null : followedReturnUrl(returnUrlWith(payment.returnUrl, payment.id, status), testMode);
}

/** The customer's own machine, by the names every browser resolves there itself and treats as secure over http. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Where the customer's browser is sent for a return URL. In test mode only (the simulated acquirer: no real card, no
 * real customer), an `https` return URL on the customer's own machine is followed over `http`: a developer's shop on
 * `localhost` has no certificate, while the contract takes only `https` return URLs. With a real acquirer, and for every
 * other host (`shop.localhost` too, for a local shop that does serve https), the URL is followed as the seller gave it.
 * docs/decisions/0023-local-return-in-test-mode.md weighs it.
 */
export function followedReturnUrl(url: string, testMode: boolean): string {
  if (!testMode) return url;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' || !LOOPBACK_HOSTS.has(parsed.hostname)) return url;
  parsed.protocol = 'http:';
  return parsed.toString();
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
