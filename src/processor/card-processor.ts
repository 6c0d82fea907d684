import type { CardDetails } from '../checkout/card-rules';
import type { FailureCode } from '../checkout/failure-messages';

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
  paymentId: string;
  /** The acquirer's reference of the original authorization. */
  reference: string;
  amount: number;
}

/** The port every acquirer adapter implements; chosen by configuration (CARD_PROCESSOR). */
export interface CardProcessor {
  authorize(request: AuthorizationRequest): Promise<AuthorizationResult>;
  /** Finishes a 3-D Secure challenge opened by `authorize`; the customer passed it or not. */
  completeChallenge(reference: string, authenticated: boolean): Promise<Exclude<AuthorizationResult, { kind: 'challenge' }>>;
  refund(request: RefundRequest): Promise<{ reference: string }>;
}
