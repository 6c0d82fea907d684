/** A card as the customer entered it, after the checkout's own checks. Never stored, never logged. */
export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  securityCode: string;
  nameOnCard?: string | null;
}

/** Why a card payment failed, as the acquirer says it (the spec's lifecycle `error`). */
export type FailureCode =
  | 'card_declined'
  | 'insufficient_funds'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'processing_error'
  | 'fraudulent'
  | 'authentication_failed';

export interface AuthorizationRequest {
  paymentId: string;
  amount: number;
  currency: string;
  card: CardDetails;
}

/**
 * What the acquirer answered. `declined` is a definite no; an exception from the port means the outcome
 * is unknown (time-out, network), which is never booked as a decline.
 */
export type AuthorizationResult =
  | { kind: 'approved'; reference: string; threeDs: 'frictionless' | null }
  | { kind: 'declined'; code: FailureCode; threeDs: 'frictionless' | 'challenged' | 'failed' | null }
  | { kind: 'challenge'; reference: string };

export interface RefundRequest {
  /** Our refund's id, sent as the acquirer's idempotency key: asking twice refunds once. */
  refundId: string;
  paymentId: string;
  /** The acquirer's reference of the original authorization. */
  reference: string;
  amount: number;
}

/**
 * What the acquirer answered about a refund. `declined` is a definite no; an exception from the port means
 * the outcome is unknown, and the same request (same `refundId`) may be sent again.
 */
export type RefundResult = { kind: 'refunded'; reference: string } | { kind: 'declined'; reason: string };

/**
 * What the acquirer knows of an authorization, found by our own reference (the payment id it was sent
 * with): its final answer, or `not_found` when the request never reached it. An exception means the
 * acquirer could not say (unreachable): ask again later.
 */
export type AuthorizationLookup = Exclude<AuthorizationResult, { kind: 'challenge' }> | { kind: 'not_found' };

/** What the acquirer knows of a refund, found by our refund id (its idempotency key); as above. */
export type RefundLookup = RefundResult | { kind: 'not_found' };

/** The port every acquirer adapter implements; chosen by configuration (CARD_PROCESSOR). */
export interface CardProcessor {
  authorize(request: AuthorizationRequest): Promise<AuthorizationResult>;
  /** Finishes a 3-D Secure challenge opened by `authorize`; the customer passed it or not. */
  completeChallenge(reference: string, authenticated: boolean): Promise<Exclude<AuthorizationResult, { kind: 'challenge' }>>;
  refund(request: RefundRequest): Promise<RefundResult>;
  /**
   * Cancels an approved authorization we will not complete (the shop stopped taking payments while the
   * card was at the acquirer): the hold is released, or the charge refunded if it was already captured,
   * like Adyen's cancelOrRefund. Idempotent per authorization; an exception means the outcome is unknown.
   */
  voidAuthorization(request: { paymentId: string; reference: string }): Promise<void>;
  /**
   * Reconciliation (docs/checkout.md): asks what became of an authorization whose answer we never got,
   * like Adyen's or Stripe's look-up by merchant reference. Read-only; never charges.
   */
  lookupAuthorization(paymentId: string): Promise<AuthorizationLookup>;
  /** The same for a refund, by our refund id. */
  lookupRefund(refundId: string): Promise<RefundLookup>;
}
