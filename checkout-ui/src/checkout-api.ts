import CHECKOUT_DOCUMENT from '../../schema/operations/checkout.graphql';
import type { CheckedCard } from './card-field-errors';

/** The CheckoutFields fragment of schema/operations/checkout.graphql. */
export interface CheckoutView {
  id: string;
  amount: number;
  currency: string;
  shopName: string;
  status: 'PENDING' | 'COMPLETED' | 'FAILED' | 'REFUNDED';
  stage: 'CARD_REQUIRED' | 'PROCESSING' | 'AUTHENTICATION_REQUIRED' | 'FINISHED';
  failureCode: string | null;
  failureMessage: string | null;
  redirectUrl: string | null;
  acceptingPayments: boolean;
  /** Our address that sends the customer to the card issuer's 3-D Secure page (redirect flow), or null. */
  authenticationUrl: string | null;
  /** The simulated acquirer runs: no real card is charged. */
  testMode: boolean;
}

/** What 3-D Secure 2 asks of the browser (the BrowserInput of the schema). */
function browserInfo(): Record<string, unknown> {
  return {
    language: navigator.language,
    colorDepth: screen.colorDepth,
    screenHeight: screen.height,
    screenWidth: screen.width,
    timeZoneOffset: new Date().getTimezoneOffset(),
  };
}

/**
 * A failure to show the customer, by its code: the page words it in the customer's language (the server's
 * message is English, for the seller API's sake, and is not shown).
 */
export class CheckoutError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

/**
 * Runs one of the public checkout operations. The server allow-lists callers without credentials by the
 * whole document, so every call sends it as bundled, byte for byte, and names the operation.
 */
async function run<T>(operationName: string, variables: Record<string, unknown>): Promise<T> {
  let response: Response;
  try {
    response = await fetch('/graphql', {
      method: 'POST',
      // The page's language, which the server remembers for the payment when the card is sent (checkout.resolver.ts).
      headers: { 'Content-Type': 'application/json', 'Accept-Language': document.documentElement.lang },
      body: JSON.stringify({ query: CHECKOUT_DOCUMENT, operationName, variables }),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new CheckoutError('NETWORK');
  }
  const body = (await response.json().catch(() => null)) as {
    data?: T | null;
    errors?: { extensions?: { code?: string } }[];
  } | null;
  const error = body?.errors?.[0];
  if (error) throw new CheckoutError(error.extensions?.code ?? 'UNKNOWN');
  if (!response.ok || !body?.data) throw new CheckoutError('UNAVAILABLE');
  return body.data;
}

export const checkoutApi = {
  view: async (id: string) => (await run<{ checkoutPayment: CheckoutView }>('CheckoutPayment', { id })).checkoutPayment,
  submitCard: async (id: string, card: CheckedCard) =>
    (await run<{ submitCard: CheckoutView }>('SubmitCard', { id, card, browser: browserInfo() })).submitCard,
  answerThreeDSecure: async (id: string, authenticated: boolean) =>
    (await run<{ answerThreeDSecure: CheckoutView }>('AnswerThreeDSecure', { id, authenticated })).answerThreeDSecure,
  cancel: async (id: string) => (await run<{ cancelCheckout: { redirectUrl: string } }>('CancelCheckout', { id })).cancelCheckout,
};
