import { PAYMENT_LIFECYCLE } from '../payments/payment.lifecycle';
import { REFUND_LIFECYCLE } from '../refunds/refund.lifecycle';

/** What the acquirer's records say of a payment or refund whose answer never reached us. */
export enum SettlementAnswer {
  /** The acquirer authorised the payment (its PSP reference is given). */
  AUTHORISED = 'authorised',
  /** The acquirer refused the payment. */
  REFUSED = 'refused',
  /** The acquirer has no trace of the payment request. */
  NEVER_RECEIVED = 'never_received',
  /** The acquirer carried out the refund (its PSP reference is given). */
  REFUNDED = 'refunded',
  /** The acquirer, or the card scheme after it, failed the refund: the customer did not get the money. */
  REFUND_FAILED = 'refund_failed',
}

/** Where a payment or refund stands when an answer is proposed or applied. */
export type SettlementTarget = { type: 'payment'; status: string; stage: string } | { type: 'refund'; status: string };

/** The acquirer's reference as Adyen writes it (16 characters) or another acquirer might: short, plain. */
const ACQUIRER_REFERENCE = /^[A-Za-z0-9_-]{1,64}$/;

const NEEDS_REFERENCE: readonly SettlementAnswer[] = [SettlementAnswer.AUTHORISED, SettlementAnswer.REFUNDED];

/**
 * Why an answer cannot settle its target, or null when it can. Only outcomes nobody has settled may be answered by
 * hand: a payment whose card is at the acquirer with no answer, a refund sent with no answer, or a refund carried out
 * that the acquirer says failed afterwards (its REFUND_FAILED never arrived).
 */
export function answerProblem(answer: SettlementAnswer, target: SettlementTarget, reference: string | null): string | null {
  if (NEEDS_REFERENCE.includes(answer) && !(reference !== null && ACQUIRER_REFERENCE.test(reference))) {
    return "This answer needs the acquirer's reference (its PSP reference: 1 to 64 letters, digits, - or _)";
  }
  if (target.type === 'payment') {
    if (!PAYMENT_ANSWERS.includes(answer)) return `A payment can be answered authorised, refused or never_received, not ${answer}`;
    // The payment's moves these answers apply (settleLookedUpPayment), from the card at the acquirer.
    const { complete } = PAYMENT_LIFECYCLE.moves;
    const atAcquirer = (complete.from as readonly string[]).includes(target.status) && (complete.stage!.from as readonly string[]).includes(target.stage);
    if (!atAcquirer) return `Only a payment whose card is at the acquirer without an answer can be settled by hand (this one is ${target.status})`;
    return null;
  }
  if (PAYMENT_ANSWERS.includes(answer)) return `A refund can be answered refunded or refund_failed, not ${answer}`;
  // The refund's moves these answers apply (settleNotifiedRefund): carried out, or failed before or after it was.
  const { succeed, fail, failAfterRefund } = REFUND_LIFECYCLE.moves;
  const from: readonly string[] = answer === SettlementAnswer.REFUNDED ? succeed.from : [...fail.from, ...failAfterRefund.from];
  return from.includes(target.status) ? null : `Only a refund that is ${from.join(' or ')} can be answered ${answer} (this one is ${target.status})`;
}

const PAYMENT_ANSWERS: readonly SettlementAnswer[] = [SettlementAnswer.AUTHORISED, SettlementAnswer.REFUSED, SettlementAnswer.NEVER_RECEIVED];
