import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FailureCode } from './card-processor';
import { randomBase62 } from '../shared/random-id';
import type { AuthorizationResult, CardProcessor, RefundRequest, RefundResult } from './card-processor';

/** How a test card behaves. `challenge` opens a 3-D Secure challenge; `after` is the answer once passed. */
type Behaviour =
  | { kind: 'approve'; threeDs: 'frictionless' | null }
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
};

const APPROVE: Behaviour = { kind: 'approve', threeDs: null };

/** One call the simulator received, as a real acquirer's dashboard lists them (card data never kept). */
export interface AcquirerCall {
  operation: 'authorize' | 'completeChallenge' | 'refund' | 'voidAuthorization';
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
 */
export class SimulatedAcquirer implements CardProcessor {
  readonly calls: AcquirerCall[] = [];

  constructor(
    private readonly delayMs = 0,
    private readonly refundDelayMs = 0,
  ) {}

  async authorize({ paymentId, card }: { paymentId: string; card: { number: string } }): Promise<AuthorizationResult> {
    this.record('authorize', paymentId);
    await this.wait();
    const behaviour = TEST_CARDS[card.number] ?? APPROVE;
    if (behaviour.kind === 'approve') return { kind: 'approved', reference: reference('auth'), threeDs: behaviour.threeDs };
    if (behaviour.kind === 'decline') return { kind: 'declined', code: behaviour.code, threeDs: null };
    return { kind: 'challenge', reference: `${reference('3ds')}.${behaviour.after}` };
  }

  async completeChallenge(challenge: string, authenticated: boolean) {
    this.record('completeChallenge', challenge);
    await this.wait();
    const after = challenge.split('.')[1];
    if (!authenticated) return { kind: 'declined' as const, code: 'authentication_failed' as const, threeDs: 'failed' as const };
    if (after === 'approve') return { kind: 'approved' as const, reference: reference('auth'), threeDs: null };
    return { kind: 'declined' as const, code: after as FailureCode, threeDs: 'challenged' as const };
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
    return { kind: 'refunded', reference: `sim_re_${createHash('sha256').update(request.refundId).digest('hex').slice(0, 24)}` };
  }

  async voidAuthorization(request: { paymentId: string; reference: string }): Promise<void> {
    this.record('voidAuthorization', request.paymentId);
    await this.wait();
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
