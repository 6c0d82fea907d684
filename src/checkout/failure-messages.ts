import { EXPIRED } from '../payments/payment-expiry';
import type { FailureCode } from '../processor/card-processor';

/** What the customer reads: plain words, and the word "declined" for every decline. */
export const FAILURE_MESSAGES: Record<FailureCode, string> = {
  card_declined: 'Your card was declined by your bank.',
  insufficient_funds: 'Your card was declined: there are not enough funds on it.',
  expired_card: 'Your card was declined because it has expired.',
  incorrect_cvc: 'Your card was declined because the security code is incorrect.',
  processing_error: 'Your card was declined because your bank could not process the payment.',
  fraudulent: 'Your card was declined because the payment was blocked as suspected fraud.',
  authentication_failed: 'Your card was declined because 3-D Secure authentication failed.',
};

/**
 * Not a decline: the card was approved, but the shop stopped taking payments before the payment could
 * complete, so the authorization was voided (docs/checkout.md, "A shop that cannot take payments").
 */
export const SHOP_UNAVAILABLE = 'shop_unavailable';
const SHOP_UNAVAILABLE_MESSAGE = 'This shop cannot take payments right now. The payment was cancelled and your card will not be charged.';

/** Not a decline either: nobody paid before the payment expired (docs/checkout.md, "Expiry"). */
const EXPIRED_MESSAGE = 'This payment link has expired and can no longer be paid. Your card has not been charged.';

export function failureMessageFor(code: string | null): string | null {
  if (code === null) return null;
  if (code === EXPIRED) return EXPIRED_MESSAGE;
  if (code === SHOP_UNAVAILABLE) return SHOP_UNAVAILABLE_MESSAGE;
  return FAILURE_MESSAGES[code as FailureCode] ?? 'Your payment was declined.';
}
