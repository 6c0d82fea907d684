
/** A card as the customer entered it, after the checkout's own checks. Never stored, never logged. */
/**
 * What an acquirer's dispute event does: open the dispute (an inquiry, no money), or one of the dispute table's moves.
 * The port names the steps itself; the disputes module checks they are its table's moves (dispute.lifecycle.ts).
 */
export type DisputeStep = 'open' | 'chargeBack' | 'reverse' | 'secondChargeback' | 'win' | 'lose' | 'close';

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

/**
 * The customer's browser, as 3-D Secure 2 wants it (Adyen's `browserInfo`): the headers come from the
 * request, the rest from the checkout page. Never stored.
 */
export interface ShopperBrowser {
  ip: string;
  userAgent: string;
  acceptHeader: string;
  language?: string;
  colorDepth?: number;
  screenHeight?: number;
  screenWidth?: number;
  timeZoneOffset?: number;
  javaEnabled?: boolean;
}

export interface AuthorizationRequest {
  paymentId: string;
  amount: number;
  currency: string;
  card: CardDetails;
  /** Where the issuer's 3-D Secure page sends the customer back (our return route for this payment). */
  returnUrl?: string;
  browser?: ShopperBrowser;
}

/** Where the customer must go to authenticate with the issuer (a redirect 3-D Secure flow). */
export interface ChallengeRedirect {
  url: string;
  method: 'GET' | 'POST';
  /** Form fields of a POST redirect. */
  data?: Record<string, string>;
}

/** How the customer answered the challenge: in our page (the simulator), or back from the issuer's page. */
export type ChallengeAnswer = { authenticated: boolean } | { redirectResult: string };

/**
 * What the acquirer answered. `declined` is a definite no; an exception from the port means the outcome
 * is unknown (time-out, network), which is never booked as a decline.
 */
export type AuthorizationResult =
  | { kind: 'approved'; reference: string; threeDs: 'frictionless' | null }
  | { kind: 'declined'; code: FailureCode; threeDs: 'frictionless' | 'challenged' | 'failed' | null }
  | { kind: 'challenge'; reference: string; redirect?: ChallengeRedirect };

export interface RefundRequest {
  /** Our refund's id, sent as the acquirer's idempotency key: asking twice refunds once. */
  refundId: string;
  paymentId: string;
  /** The acquirer's reference of the original authorization. */
  reference: string;
  amount: number;
  /** The payment's currency (ISO 4217, as stored). */
  currency: string;
}

/**
 * What the acquirer answered about a refund. `declined` is a definite no; an exception from the port means
 * the outcome is unknown, and the same request (same `refundId`) may be sent again.
 */
export type RefundResult = { kind: 'refunded'; reference: string } | { kind: 'declined'; reason: string } | RefundPending;

/**
 * The acquirer took the refund and will say later (Adyen answers `received`; its REFUND notification
 * settles it): the refund stays `processing` until then.
 */
export interface RefundPending {
  kind: 'pending';
  reference: string;
}

/**
 * What the acquirer knows of an authorization, found by our own reference (the payment id it was sent
 * with): its final answer, or `not_found` when the request never reached it. An exception means the
 * acquirer could not say (unreachable): ask again later.
 */
export type AuthorizationLookup = Exclude<AuthorizationResult, { kind: 'challenge' }> | { kind: 'not_found' };

/** What the acquirer knows of a refund, found by our refund id (its idempotency key); as above. */
export type RefundLookup = Exclude<RefundResult, RefundPending> | { kind: 'not_found' };

/** The port every acquirer adapter implements; chosen by configuration (CARD_PROCESSOR). */
export interface CardProcessor {
  authorize(request: AuthorizationRequest): Promise<AuthorizationResult>;
  /** Finishes a 3-D Secure challenge opened by `authorize`, with what the customer's answer brought back. */
  completeChallenge(reference: string, answer: ChallengeAnswer): Promise<Exclude<AuthorizationResult, { kind: 'challenge' }>>;
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

/** The amount and currency a notification names (minor units; the acquirer's currency code as sent). */
export interface NotifiedMoney {
  amount: number;
  currency: string;
}

/**
 * What an acquirer told us on its own (a notification), in the port's terms: an authorization's or a
 * refund's final outcome, a refund reversed, a cancellation, a step of a dispute, or something we only
 * acknowledge. Every event that names money carries it, so it can be checked against what it refers to.
 */
export type AcquirerEvent =
  | { kind: 'authorization'; paymentId: string; outcome: AuthorizationLookup; money: NotifiedMoney }
  | { kind: 'refund'; refundId: string; outcome: Exclude<RefundLookup, { kind: 'not_found' }>; money: NotifiedMoney }
  | { kind: 'refund_reversed'; refundId: string; money: NotifiedMoney }
  | { kind: 'cancellation'; paymentId: string; cancelled: boolean }
  | { kind: 'dispute'; step: DisputeStep; paymentId: string; reference: string; money: NotifiedMoney; reason: string | null; occurredAt: Date | null }
  | { kind: 'other'; name: string };
