/**
 * The reference model of what the acquirer did and what it leaves on each seller's balance, written apart from the
 * service's code (its own fee rule, its own reading of Adyen's dispute flow), for test/integration/ledger/money-model.test.ts.
 *
 * A scenario is what Adyen actually did, in its own order: each payment charged, its refunds carried out or refused (and
 * perhaps rejected by the card scheme or reversed by the bank afterwards), its disputes walked through Adyen's flow. The
 * notifications that tell it carry Adyen's eventDate; the test delivers them in another order, repeated and delayed.
 */

/** A small seeded generator (mulberry32): a seed always gives the same scenario and the same delivery. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (low: number, high: number) => low + Math.floor(next() * (high - low + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
export type Random = ReturnType<typeof seededRandom>;

/** How a refund ended at Adyen: kept, refused, rejected by the scheme after success, or sent back by the bank. */
export type RefundFate = 'refunded' | 'refused' | 'failed_after' | 'reversed';

/** The Adyen event codes of a dispute, in the order Adyen sent them, and the amount disputed. */
export interface DisputeTruth {
  codes: string[];
  amount: number;
}

export interface PaymentTruth {
  amount: number;
  /** Adyen charged the card but its answer never reached us: only its AUTHORISATION notification tells (no refund is asked meanwhile). */
  lostAnswer: boolean;
  refunds: { amount: number; fate: RefundFate }[];
  disputes: DisputeTruth[];
}

/** Adyen's dispute flows (its dispute pages): each a path a real dispute can take, from the first notice to where it rests. */
const DISPUTE_FLOWS: string[][] = [
  ['CHARGEBACK'],
  ['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK'],
  ['CHARGEBACK', 'DISPUTE_DEFENSE_PERIOD_ENDED'],
  ['CHARGEBACK', 'CHARGEBACK_REVERSED'],
  ['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'CHARGEBACK_REVERSED', 'SECOND_CHARGEBACK'],
  ['CHARGEBACK', 'CHARGEBACK_REVERSED', 'SECOND_CHARGEBACK', 'PREARBITRATION_WON'],
  ['CHARGEBACK', 'CHARGEBACK_REVERSED', 'SECOND_CHARGEBACK', 'PREARBITRATION_LOST'],
  ['CHARGEBACK', 'CHARGEBACK_REVERSED', 'ISSUER_RESPONSE_TIMEFRAME_EXPIRED'],
  ['REQUEST_FOR_INFORMATION', 'ISSUER_RESPONSE_TIMEFRAME_EXPIRED'],
];

/** One payment's truth: an amount, perhaps a lost answer, up to two refunds within it, and a dispute (sometimes a second one after an inquiry closed). */
export function paymentTruth(random: Random): PaymentTruth {
  const amount = random.int(100, 20_000);
  const lostAnswer = random.chance(0.2);
  const refunds: PaymentTruth['refunds'] = [];
  let left = amount;
  for (let i = lostAnswer ? 0 : random.int(0, 2); i > 0 && left > 0; i--) {
    const refund = random.chance(0.4) ? left : random.int(1, left);
    left -= refund;
    refunds.push({ amount: refund, fate: random.pick<RefundFate>(['refunded', 'refunded', 'refused', 'failed_after', 'reversed']) });
  }
  const disputes: DisputeTruth[] = [];
  if (random.chance(0.6)) {
    const codes = random.pick(DISPUTE_FLOWS);
    disputes.push({ codes, amount: random.chance(0.7) ? amount : random.int(1, amount) });
    // An inquiry that closed may be followed by a chargeback of its own (a new dispute reference).
    if (codes.at(-1) === 'ISSUER_RESPONSE_TIMEFRAME_EXPIRED' && codes[0] === 'REQUEST_FOR_INFORMATION' && random.chance(0.7)) {
      disputes.push({ codes: random.pick(DISPUTE_FLOWS.filter((flow) => flow[0] !== 'REQUEST_FOR_INFORMATION')), amount });
    }
  }
  return { amount, lostAnswer, refunds, disputes };
}

/** Our fee, as the seller's terms state it: 15% of the amount, rounded half up. */
export const feeOf = (amount: number) => Math.floor((amount * 15 + 50) / 100);

/** Where Adyen's dispute flow leaves a dispute: does the chargeback stand (the disputed amount has gone to the cardholder)? */
export function chargebackStands(codes: readonly string[]): boolean {
  let stands = false;
  for (const code of codes) {
    if (code === 'CHARGEBACK' || code === 'SECOND_CHARGEBACK') stands = true;
    if (code === 'CHARGEBACK_REVERSED' || code.endsWith('_WON')) stands = false;
  }
  return stands;
}

/**
 * What the payment leaves on its seller's balance: its amount less the fee, less the refunds Adyen kept, less, for each
 * dispute whose chargeback stands, the part the seller bears (the disputed amount less what the seller's kept refunds
 * already gave back; the platform bears the rest; never below zero).
 */
export function expectedSellerMoney(truth: PaymentTruth): number {
  const kept = truth.refunds.filter((r) => r.fate === 'refunded').reduce((sum, r) => sum + r.amount, 0);
  const disputed = truth.disputes.filter((d) => chargebackStands(d.codes)).reduce((sum, d) => sum + Math.max(0, Math.min(d.amount, truth.amount - kept)), 0);
  return truth.amount - feeOf(truth.amount) - kept - disputed;
}

/** The notifications a refund's fate makes Adyen send, in its order. */
export function refundCodes(fate: RefundFate): { eventCode: string; success: boolean }[] {
  if (fate === 'refused') return [{ eventCode: 'REFUND', success: false }];
  const done = { eventCode: 'REFUND', success: true };
  if (fate === 'failed_after') return [done, { eventCode: 'REFUND_FAILED', success: true }];
  if (fate === 'reversed') return [done, { eventCode: 'REFUNDED_REVERSED', success: true }];
  return [done];
}

/**
 * A delivery order of the notifications Adyen sent in its order: adjacent swaps, the whole reversed, or shuffled, with
 * some repeated later (Adyen retries for days). Each entry is an index into the sent list.
 */
export function deliveryOrder(random: Random, count: number): { order: number[]; how: string } {
  const order = Array.from({ length: count }, (_, i) => i);
  const how = random.pick(['adjacent swaps', 'reversed', 'shuffled']);
  if (how === 'reversed') order.reverse();
  else if (how === 'shuffled') {
    for (let i = order.length - 1; i > 0; i--) {
      const j = random.int(0, i);
      [order[i], order[j]] = [order[j], order[i]];
    }
  } else {
    for (let i = 0; i + 1 < order.length; i++) if (random.chance(0.5)) [order[i], order[i + 1]] = [order[i + 1], order[i]];
  }
  for (const index of order.filter(() => random.chance(0.2))) order.splice(random.int(0, order.length), 0, index);
  return { order, how };
}
