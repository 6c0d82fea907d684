import { EXPIRED } from '../payments';
import type { FailureCode } from '../../platform/processor/card-processor';

/**
 * What a shopper is told about a failed card payment: one of three coarse categories, never the precise reason.
 * Acquirers advise against showing refusal details to shoppers, and a precise reason (a wrong security code,
 * suspected fraud) tells a card tester what to change. The precise code stays on the payment for the seller's
 * dashboard and for admins (`Payment.failureCode`); the public checkout view carries only the category.
 */
export type ShopperFailure = 'declined' | 'authentication_failed' | 'processing_error';

/** Every precise failure code, and the category the shopper sees for it. */
export const SHOPPER_FAILURE_OF: Record<FailureCode, ShopperFailure> = {
  card_declined: 'declined',
  insufficient_funds: 'declined',
  expired_card: 'declined',
  incorrect_cvc: 'declined',
  fraudulent: 'declined',
  authentication_failed: 'authentication_failed',
  processing_error: 'processing_error',
};

/**
 * The three things a shopper reads, in plain words: what happened, never an invitation to try again here. A failed
 * payment is final (docs/lifecycles.md), so the page goes on to say the one thing left to do: start again at the shop.
 */
export const SHOPPER_MESSAGES: Record<ShopperFailure, string> = {
  declined: 'Your card was declined.',
  authentication_failed: 'Your bank could not confirm this payment.',
  processing_error: 'Your payment could not be processed.',
};

/**
 * Not a decline: the card was approved, but the shop stopped taking payments before the payment could
 * complete, so the authorization was voided (docs/checkout.md, "A shop that cannot take payments").
 */
export const SHOP_UNAVAILABLE = 'shop_unavailable';
const SHOP_UNAVAILABLE_MESSAGE = 'This shop cannot take payments right now. The payment was cancelled and your card will not be charged.';

/** Not a decline either: nobody paid before the payment expired (docs/checkout.md, "Expiry"). */
const EXPIRED_MESSAGE = 'This payment link has expired and can no longer be paid. Your card has not been charged.';

/**
 * The failure as the public checkout view shows it: `shop_unavailable` and `expired` as they are (they say
 * nothing about the card), every card failure as its category; a code we do not know reads as a decline.
 */
export function shopperFailureCodeOf(code: string | null): string | null {
  if (code === null) return null;
  if (code === EXPIRED || code === SHOP_UNAVAILABLE) return code;
  return Object.hasOwn(SHOPPER_FAILURE_OF, code) ? SHOPPER_FAILURE_OF[code as FailureCode] : 'declined';
}

export function failureMessageFor(code: string | null): string | null {
  const shown = shopperFailureCodeOf(code);
  if (shown === null) return null;
  if (shown === EXPIRED) return EXPIRED_MESSAGE;
  if (shown === SHOP_UNAVAILABLE) return SHOP_UNAVAILABLE_MESSAGE;
  return SHOPPER_MESSAGES[shown as ShopperFailure];
}
