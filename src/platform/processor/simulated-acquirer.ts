import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FailureCode } from './card-processor';
import { randomBase62 } from '../../shared/random-id';
import type { SimulatedChargeback } from './acquirer-inbound';
import type { AcquirerEvent, AuthorizationLookup, AuthorizationRequest, AuthorizationResult, CardProcessor, ChallengeAnswer, RefundLookup, RefundRequest, RefundResult } from './card-processor';
import { memoryRecords, type SimulatorRecords } from './simulated-operation-store';
import { memorySimulatedEvents, type SimulatedEventStore } from './simulated-event-store';

/**
 * How a test card behaves. `challenge` opens a 3-D Secure challenge; `after` is the answer once passed.
 * `answer-lost`: charged, then the answer never comes back (and so for its refunds); `request-lost`: the
 * request never reaches the acquirer. Both look like a time-out to the caller (the port throws). `afterwards`:
 * what the acquirer tells later, as Adyen's notifications do: the charge is `disputed` (a chargeback), or each refund
 * is carried out and then rejected by the card scheme (`refunds-fail`, Adyen's REFUND_FAILED).
 */
type Behaviour =
  | { kind: 'approve'; threeDs: 'frictionless' | null; afterwards?: 'disputed' | 'refunds-fail' }
  | { kind: 'answer-lost' }
  | { kind: 'request-lost' }
  | { kind: 'decline'; code: FailureCode }
  | { kind: 'challenge'; after: 'approve' | FailureCode };

/** The simulator's test cards (docs/checkout.md, "Test cards"). Any other Luhn-valid number is approved. */
export const TEST_CARDS: Record<string, Behaviour> = {
  '4242424242424242': { kind: 'approve', threeDs: null },
  '4000000000003220': { kind: 'challenge', after: 'approve' },
  '4000000000000002': { kind: 'decline', code: 'card_declined' },
  '4000000000009995': { kind: 'decline', code: 'insufficient_funds' },
  '4000000000000069': { kind: 'decline', code: 'expired_card' },
  '4000000000000127': { kind: 'decline', code: 'incorrect_cvc' },
  '4000000000000119': { kind: 'decline', code: 'processing_error' },
  '4000000032200000': { kind: 'approve', threeDs: 'frictionless' },
  '4000008400001629': { kind: 'challenge', after: 'card_declined' },
  '4100000000000019': { kind: 'decline', code: 'fraudulent' },
  '4000000000000341': { kind: 'answer-lost' },
  '4000000000000416': { kind: 'request-lost' },
  '4000000000000259': { kind: 'approve', threeDs: null, afterwards: 'disputed' },
  '4000000000005126': { kind: 'approve', threeDs: null, afterwards: 'refunds-fail' },
};

/** What the issuer gives as the dispute card's reason, and the card scheme as the refund-failure card's. */
export const SIMULATED_DISPUTE_REASON = 'Fraudulent: the cardholder does not recognise the payment';
export const SIMULATED_REFUND_FAILURE = 'The card account is closed: the issuer returned the refund';

/** The dispute's reference at the simulated acquirer: one per disputed payment, as Adyen's dispute PSP reference. */
export const simulatedDisputeReference = (paymentId: string) => `sim_dp_${createHash('sha256').update(paymentId).digest('hex').slice(0, 24)}`;

export interface SimulatorEvents {
  /** Where the events wait until they are due (in the service, the simulator's own table). */
  store: SimulatedEventStore;
  /** How long after the charge a dispute is told, and after the refund its failure (SIMULATED_EVENT_DELAY_MS). */
  delayMs: number;
}

/** What the port throws when a simulated answer is lost: to the caller it is a time-out. */
export class SimulatedTimeout extends Error {
  constructor(what: string) {
    super(`simulated acquirer: time-out (${what})`);
  }
}

const APPROVE: Behaviour = { kind: 'approve', threeDs: null };

/** One call the simulator received, as a real acquirer's dashboard lists them (card data never kept). */
export interface AcquirerCall {
  operation: 'authorize' | 'completeChallenge' | 'refund' | 'voidAuthorization' | 'lookupAuthorization' | 'lookupRefund';
  /** The payment's id, or for a challenge answer the challenge reference. */
  subject: string;
  at: Date;
}

/** How many calls the simulator remembers (oldest dropped first), so a long-running process stays bounded. */
const CALLS_KEPT = 10_000;

/**
 * A stand-in acquirer (no real one is reachable from here). A challenge's outcome travels in its
 * reference, so any instance can finish a challenge another opened. `delayMs` simulates network time;
 * `refundDelayMs` how long a refund takes (SIMULATED_REFUND_DELAY_MS). `calls` lists the calls this
 * instance received, newest last: tests prove with it that a refused payment never reached the acquirer.
 * `records` is what it charged, declined and refunded, so that the look-ups can answer: in the service they
 * live in PostgreSQL (the simulator's own table), so they survive a restart and every instance sees them,
 * as a real acquirer's would; in memory otherwise (unit tests).
 */
export class SimulatedAcquirer implements CardProcessor {
  readonly calls: AcquirerCall[] = [];
  /** Called with the delay of each event scheduled, so the job that tells them can be woken when it is due. */
  onScheduled: ((delayMs: number) => void) | null = null;

  constructor(
    private readonly delayMs = 0,
    private readonly refundDelayMs = 0,
    private readonly records: SimulatorRecords = memoryRecords(),
    readonly events: SimulatorEvents = { store: memorySimulatedEvents(), delayMs: 0 },
  ) {}

  async authorize({ paymentId, card, amount, currency }: Pick<AuthorizationRequest, 'paymentId' | 'amount' | 'currency'> & { card: { number: string } }): Promise<AuthorizationResult> {
    this.record('authorize', paymentId);
    await this.wait();
    const behaviour = TEST_CARDS[card.number] ?? APPROVE;
    if (behaviour.kind === 'request-lost') throw new SimulatedTimeout('the request was lost before the charge');
    if (behaviour.kind === 'challenge') return { kind: 'challenge', reference: `${reference('3ds')}.${behaviour.after}.${paymentId}` };
    const result: AuthorizationResult =
      behaviour.kind === 'decline' ? { kind: 'declined', code: behaviour.code, threeDs: null } : { kind: 'approved', reference: reference('auth'), threeDs: behaviour.kind === 'approve' ? behaviour.threeDs : null };
    const afterwards = behaviour.kind === 'approve' ? behaviour.afterwards : undefined;
    await this.keepAuthorization(paymentId, result, behaviour.kind === 'answer-lost', afterwards === 'refunds-fail');
    if (afterwards === 'disputed') await this.disputeLater(paymentId, amount, currency);
    if (behaviour.kind === 'answer-lost') throw new SimulatedTimeout('charged, then the answer was lost');
    return result;
  }

  /**
   * The dispute card's chargeback, told as Adyen tells one: NOTIFICATION_OF_CHARGEBACK, then CHARGEBACK for the whole
   * amount, both dated when they fall due. Scheduled once per payment, however often the card is sent.
   */
  private async disputeLater(paymentId: string, amount: number, currency: string): Promise<void> {
    const occurredAt = new Date(Date.now() + this.events.delayMs);
    const dispute = { kind: 'dispute', paymentId, reference: simulatedDisputeReference(paymentId), money: { amount, currency: currency.toUpperCase() }, reason: SIMULATED_DISPUTE_REASON, occurredAt } as const;
    await this.tellLater(`dispute-open:${paymentId}`, paymentId, { ...dispute, step: 'open' });
    await this.tellLater(`dispute-chargeback:${paymentId}`, paymentId, { ...dispute, step: 'chargeBack' });
  }

  /**
   * The issuer reverses a chargeback (Adyen's CHARGEBACK_REVERSED: the defence won), told at once. Only a finance admin
   * asks for it, from the back office, while the simulator runs; once per dispute.
   */
  async reverseChargeback(chargeback: SimulatedChargeback): Promise<void> {
    const { paymentId, reference: disputeReference, amount, currency } = chargeback;
    const event: AcquirerEvent = { kind: 'dispute', step: 'reverse', paymentId, reference: disputeReference, money: { amount, currency: currency.toUpperCase() }, reason: null, occurredAt: new Date() };
    await this.tellLater(`dispute-reverse:${disputeReference}`, paymentId, event, 0);
  }

  private async tellLater(key: string, paymentId: string, event: AcquirerEvent, delayMs = this.events.delayMs): Promise<void> {
    await this.events.store.schedule({ key, paymentId, event, delayMs });
    this.onScheduled?.(delayMs);
  }

  /** The challenge reference carries its outcome and payment id, so any instance can finish it. */
  async completeChallenge(challenge: string, answer: ChallengeAnswer) {
    // The simulator's challenge is answered on our page; a redirect result cannot come from it.
    const authenticated = 'authenticated' in answer && answer.authenticated;
    this.record('completeChallenge', challenge);
    await this.wait();
    const [, after, paymentId] = challenge.split('.');
    let result: Exclude<AuthorizationResult, { kind: 'challenge' }>;
    if (!authenticated) result = { kind: 'declined', code: 'authentication_failed', threeDs: 'failed' };
    else if (after === 'approve') result = { kind: 'approved', reference: reference('auth'), threeDs: null };
    else result = { kind: 'declined', code: after as FailureCode, threeDs: 'challenged' };
    if (paymentId) await this.keepAuthorization(paymentId, result, false);
    return result;
  }

  async lookupAuthorization(paymentId: string): Promise<AuthorizationLookup> {
    this.record('lookupAuthorization', paymentId);
    await this.wait();
    const kept = await this.records.find('authorization', paymentId);
    if (!kept) return { kind: 'not_found' };
    if (kept.outcome === 'approved') return { kind: 'approved', reference: kept.acquirerReference!, threeDs: null };
    return { kind: 'declined', code: kept.outcome as FailureCode, threeDs: null };
  }

  async lookupRefund(refundId: string): Promise<RefundLookup> {
    this.record('lookupRefund', refundId);
    await this.wait();
    const kept = await this.records.find('refund', refundId);
    return kept ? { kind: 'refunded', reference: kept.acquirerReference! } : { kind: 'not_found' };
  }

  /**
   * Refunds at once (after `refundDelayMs`). Idempotent like a real acquirer's API: the refund reference is
   * derived from our refund id, so asking again answers the same refund. Authorizations it did not issue
   * (not `sim_auth_…`) are declined.
   */
  async refund(request: RefundRequest): Promise<RefundResult> {
    this.record('refund', request.paymentId);
    if (this.refundDelayMs > 0) await sleep(this.refundDelayMs);
    if (!request.reference.startsWith('sim_auth_')) return { kind: 'declined', reason: 'unknown_authorization' };
    const refunded = `sim_re_${createHash('sha256').update(request.refundId).digest('hex').slice(0, 24)}`;
    const authorization = await this.records.find('authorization', request.paymentId);
    const losesAnswer = authorization?.losesAnswers ?? false;
    await this.records.keep({ kind: 'refund', ourReference: request.refundId, outcome: 'refunded', acquirerReference: refunded, losesAnswers: losesAnswer });
    // The refund-failure card: carried out now, rejected by the card scheme later (Adyen's REFUND_FAILED after REFUND).
    if (authorization?.refundsFail) {
      const failure: AcquirerEvent = { kind: 'refund', refundId: request.refundId, outcome: { kind: 'declined', reason: SIMULATED_REFUND_FAILURE }, money: { amount: request.amount, currency: request.currency.toUpperCase() } };
      await this.tellLater(`refund-failed:${request.refundId}`, request.paymentId, failure);
    }
    if (losesAnswer) throw new SimulatedTimeout('refunded, then the answer was lost');
    return { kind: 'refunded', reference: refunded };
  }

  /** The first answer stands (idempotent like a real acquirer): keeping it again changes nothing. */
  private async keepAuthorization(paymentId: string, result: Exclude<AuthorizationResult, { kind: 'challenge' }>, losesAnswers: boolean, refundsFail = false): Promise<void> {
    const approved = result.kind === 'approved';
    await this.records.keep({ kind: 'authorization', ourReference: paymentId, outcome: approved ? 'approved' : result.code, acquirerReference: approved ? result.reference : null, losesAnswers, refundsFail });
  }

  /** Nothing follows a void: a dispute the charge was to get is not told. */
  async voidAuthorization(request: { paymentId: string; reference: string }): Promise<void> {
    this.record('voidAuthorization', request.paymentId);
    await this.wait();
    await this.events.store.cancel(request.paymentId);
  }

  private record(operation: AcquirerCall['operation'], subject: string): void {
    if (this.calls.push({ operation, subject, at: new Date() }) > CALLS_KEPT) this.calls.shift();
  }

  private async wait(): Promise<void> {
    if (this.delayMs > 0) await sleep(this.delayMs);
  }
}

function reference(kind: string): string {
  return `sim_${kind}_${randomBase62(16)}`;
}
