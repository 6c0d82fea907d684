import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Metrics } from '../../platform/observability/metrics';
import {
  type Payment,
  selectCheckoutPayment,
  type CheckoutPayment,
  isPaymentId,
  movePayment,
  paymentEvent,
  EXPIRED,
  expirePayment,
  expiryDeadline,
  isDueToExpire,
  CheckoutStage,
} from '../payments';
import type { AuthorizationLookup, AuthorizationResult, CardDetails, CardProcessor, ChallengeAnswer, ShopperBrowser } from '../../platform/processor/card-processor';
import { DomainError, domainError } from '../../shared/errors';
import { lockedStandingOfPaymentShop, standingOf, takesPayments } from '../identity';
import { summarizeCard, validCard } from './card-intake';
import { SHOP_UNAVAILABLE } from './failure-messages';
import { completeInOneStatement, type CompletionResult } from './completion-statement';
import { claimForCard } from './card-claim';
import { newReturnToken, returnTokenMatches, RETURN_TOKEN_PARAM } from './issuer-return-token';
import type { CardTestingGuard } from './card-testing-guard';

/** What checkout needs besides the unit of work: built once at start, shared by every request. */
export interface CheckoutDeps {
  processor: CardProcessor;
  metrics: Metrics;
  guard: CardTestingGuard;
  baseUrl: string;
  logger: Logger;
  /** Wakes this process's mail relay: a completion just wrote the customer's receipt. */
  wakeMail?(): void;
  /** PAYMENT_EXPIRES_AFTER_MS (docs/checkout.md, "Expiry"). */
  expiresAfterMs: number;
  /**
   * Hands a live test that just completed to the refund jobs, after its completion committed (the refund sweep
   * catches any this misses). Never throws; absent, the sweep alone refunds it.
   */
  refundLiveTest?(paymentId: string): void;
}

export interface CheckoutCaller {
  em: EntityManager;
  clientAddress: string;
  requestId: string;
  /** Told the token of a 3-D Secure challenge this call opened, for the answer to the customer's browser only. */
  keepChallengeToken?(token: string): void;
}

type FinalResult = Exclude<AuthorizationResult, { kind: 'challenge' }>;

/**
 * A deleted shop's payment is still found: its page says the shop cannot take payments and leads back
 * to the shop (deleting a shop is how a seller replaces a lost key, so the customer may pay anew there).
 */
export async function findCheckoutPayment(em: EntityManager, id: string): Promise<CheckoutPayment> {
  // The row as it is now, with its shop and seller, in one plain statement: no entities (docs/decisions/0003-completion-statement.md).
  const payment = isPaymentId(id) ? await selectCheckoutPayment(em, id) : null;
  if (!payment) throw domainError('PAYMENT_NOT_FOUND');
  return payment;
}

/**
 * The payment as its checkout sees it: one past its expiry is expired first (lazily; the sweep does the
 * same for payments nobody opens), so the page, a card and a 3-D Secure answer all meet the final state.
 */
export async function openCheckoutPayment(deps: CheckoutDeps, em: EntityManager, id: string): Promise<CheckoutPayment> {
  const payment = await findCheckoutPayment(em, id);
  if (!isDueToExpire(payment, deps.expiresAfterMs)) return payment;
  if (await expirePayment(em, deps, id)) {
    deps.logger.info({ paymentId: id }, 'payment expired');
    deps.metrics.paymentOutcomes.inc({ outcome: `failed_${EXPIRED}` });
  }
  return findCheckoutPayment(em, id);
}

/** Card submissions and 3-D Secure answers are refused, before the acquirer is called, while this is false. */
export function shopTakesPayments(payment: CheckoutPayment): boolean {
  return takesPayments(standingOf(payment.shop));
}

function assertShopTakesPayments(payment: CheckoutPayment): void {
  if (!shopTakesPayments(payment)) throw domainError('SHOP_CANNOT_TAKE_PAYMENTS');
}

/** Whether the hosted page for `id` exists (a 404 page otherwise); other failures are not a "no". */
export async function paymentExists(em: EntityManager, id: string): Promise<boolean> {
  try {
    await findCheckoutPayment(em, id);
    return true;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'PAYMENT_NOT_FOUND') return false;
    throw error;
  }
}

/**
 * The customer submits a card. Exactly once: the move from `card_required` to `processing` is a
 * conditional UPDATE taken before the acquirer is called, so only one submission per payment ever
 * reaches it; every other one (double click, second tab, replay) is answered with the current state.
 */
export async function submitCard(deps: CheckoutDeps, caller: CheckoutCaller, paymentId: string, card: CardDetails, browser?: ShopperBrowser): Promise<CheckoutPayment> {
  const checked = validCard(card);
  const payment = await openCheckoutPayment(deps, caller.em, paymentId);
  if (payment.checkoutStage !== CheckoutStage.CARD_REQUIRED) return payment;
  assertShopTakesPayments(payment);
  await deps.guard.admit(caller.clientAddress, payment.shop.id);

  // Not past its expiry: this claim and the expiry move are updates of one row, so exactly one lands.
  const claimed = await claimForCard(caller.em, paymentId, expiryDeadline(deps.expiresAfterMs), summarizeCard(checked));
  if (!claimed) return openCheckoutPayment(deps, caller.em, paymentId);

  // The return address goes with the authorization; only its hash is kept, and only if a challenge opens.
  const returnToken = newReturnToken();
  const result = await callAcquirer(deps, caller, () =>
    deps.processor.authorize({ paymentId, amount: payment.amount, currency: payment.currency, card: checked, returnUrl: issuerReturnUrl(deps, paymentId, returnToken.token), browser }),
  );
  if (result.kind === 'challenge') {
    deps.metrics.paymentOutcomes.inc({ outcome: 'challenged' });
    const opened = await movePayment(caller.em, 'challenge', {
      id: paymentId,
      changes: { threeDsReference: result.reference, threeDsRedirect: result.redirect ?? null, threeDsReturnHash: returnToken.hash },
      readBack: false,
    });
    // Only this browser may go to the issuer (issuerRedirectFor), so only it can come back.
    if (opened) caller.keepChallengeToken?.(returnToken.token);
  } else {
    const written = await finish(deps, caller, payment, result, result.threeDs);
    // Completed by this request's own statement: the answer is the payment as that statement left it (nothing
    // else of it changes on the card path), without reading it back: a round trip less (docs/decisions/0003-completion-statement.md).
    if (written) return { ...payment, ...written };
  }
  return findCheckoutPayment(caller.em, paymentId);
}

/**
 * Where the issuer's 3-D Secure page sends the customer back (the checkout page's return route), with the
 * challenge's single-use token: the acquirer keeps our query parameters and adds its `redirectResult`.
 */
export function issuerReturnUrl(deps: Pick<CheckoutDeps, 'baseUrl'>, paymentId: string, token: string): string {
  return `${deps.baseUrl}/checkout/${paymentId}/3ds-return?${RETURN_TOKEN_PARAM}=${encodeURIComponent(token)}`;
}

/**
 * Where the issuer's page of the payment's open challenge is, for the browser that opened it (the answer to
 * its card submission carried the challenge's token: `authenticationUrl`), and null for anyone else who knows
 * the payment id, or when no challenge is open. Nobody else can spend the challenge at the issuer.
 */
export async function issuerRedirectFor(em: EntityManager, paymentId: string, challengeToken: string | undefined): Promise<Payment['threeDsRedirect']> {
  const payment = await findCheckoutPayment(em, paymentId).catch(() => null);
  if (!payment?.threeDsRedirect || !returnTokenMatches(payment.threeDsReturnHash, challengeToken)) return null;
  return payment.threeDsRedirect;
}

/**
 * The customer answered the 3-D Secure challenge on our page (the simulator's in-page challenge). A
 * challenge answered at the issuer's page (redirect flow) comes back through returnFromIssuer instead.
 */
export async function answerThreeDSecure(deps: CheckoutDeps, caller: CheckoutCaller, paymentId: string, authenticated: boolean): Promise<CheckoutPayment> {
  const payment = await openCheckoutPayment(deps, caller.em, paymentId);
  if (payment.threeDsRedirect) return payment;
  return takeChallengeAnswer(deps, caller, payment, { authenticated });
}

/**
 * The customer is back from the issuer's 3-D Secure page with its `redirectResult`: the acquirer finishes
 * the payment. Exactly once however often the return page loads: the answer is claimed like a card
 * submission, and every later load finds the payment past the challenge and changes nothing. Only a return
 * carrying the challenge's token (`returnToken`, from the address we gave the acquirer) is taken: one without
 * it, from anyone who merely knows the payment id, claims nothing, calls nobody and leaves the challenge open.
 */
export async function returnFromIssuer(
  deps: CheckoutDeps,
  caller: CheckoutCaller,
  paymentId: string,
  redirectResult: string,
  returnToken: string | null,
): Promise<CheckoutPayment> {
  const payment = await openCheckoutPayment(deps, caller.em, paymentId);
  if (!payment.threeDsRedirect || payment.checkoutStage !== CheckoutStage.AUTHENTICATION_REQUIRED) return payment;
  if (!returnTokenMatches(payment.threeDsReturnHash, returnToken)) {
    deps.logger.warn({ requestId: caller.requestId, paymentId, token: returnToken ? 'wrong' : 'missing' }, '3-D Secure return refused: it does not carry the token of the return address');
    return payment;
  }
  return takeChallengeAnswer(deps, caller, payment, { redirectResult });
}

/** Claimed like a card submission (a conditional UPDATE on the open challenge), so it runs once. */
async function takeChallengeAnswer(deps: CheckoutDeps, caller: CheckoutCaller, payment: CheckoutPayment, answer: ChallengeAnswer): Promise<CheckoutPayment> {
  const paymentId = payment.id;
  if (payment.checkoutStage !== CheckoutStage.AUTHENTICATION_REQUIRED) return payment;
  assertShopTakesPayments(payment);
  // Read before the move: the moved row (same identity in this unit of work) has the reference cleared.
  const reference = payment.threeDsReference!;
  const claimed = await movePayment(caller.em, 'answerChallenge', {
    id: paymentId,
    // An answer after the expiry is not taken (docs/checkout.md, "Expiry"): the challenge never completes.
    where: { threeDsReference: reference, createdAt: { $gt: expiryDeadline(deps.expiresAfterMs) } },
    // The return token is single-use: its hash goes with the challenge.
    changes: { processingSince: new Date(), threeDsReference: null, threeDsRedirect: null, threeDsReturnHash: null },
    readBack: false,
  });
  if (!claimed) return openCheckoutPayment(deps, caller.em, paymentId);

  const result = await callAcquirer(deps, caller, () => deps.processor.completeChallenge(reference, answer));
  // The customer was challenged; it failed when they said so (in-page) or the acquirer says so (redirect).
  const failed = 'authenticated' in answer ? !answer.authenticated : result.threeDs === 'failed';
  await finish(deps, caller, payment, result, failed ? 'failed' : 'challenged');
  return findCheckoutPayment(caller.em, paymentId);
}

/**
 * An acquirer error leaves the payment `processing`: we do not know whether the card was charged, so it
 * is neither failed nor retried here; reconciliation asks the acquirer later and settles it
 * (settleLookedUpPayment; docs/checkout.md, "Reconciliation").
 */
async function callAcquirer<T>(deps: CheckoutDeps, caller: CheckoutCaller, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    deps.logger.error({ requestId: caller.requestId, err: (error as Error).message }, 'card processor outcome unknown');
    throw domainError('PROCESSOR_UNAVAILABLE');
  }
}

/** The acquirer's final answer applied; what the completion statement wrote when this call completed the payment. */
async function finish(deps: CheckoutDeps, caller: CheckoutCaller, payment: CheckoutPayment, result: FinalResult, threeDsOutcome: Payment['threeDsOutcome']): Promise<Completion['written']> {
  const paymentId = payment.id;
  if (result.kind === 'approved') return (await complete(deps, caller, payment, result.reference, threeDsOutcome)).written;
  const failed = await caller.em.transactional((tx) => failPayment(deps, tx, paymentId, { failureCode: result.code, threeDsOutcome }));
  if (failed) {
    deps.logger.info({ requestId: caller.requestId, paymentId, code: result.code }, 'payment failed');
    deps.metrics.paymentOutcomes.inc({ outcome: `failed_${result.code}` });
    await deps.guard.recordDecline(caller.clientAddress, payment.shop.id);
  }
  return null;
}

/**
 * pending (stage `processing`) -> failed, and its `payment.failed` outbox event (delivered only to shops that
 * chose it), in the caller's transaction: every way a payment fails (decline, reconciliation, a shop that
 * stopped taking payments) sends the event exactly when the move lands.
 */
async function failPayment(deps: CheckoutDeps, tx: EntityManager, paymentId: string, changes: Partial<Payment>): Promise<boolean> {
  return !!(await movePayment(tx, 'fail', { id: paymentId, changes, effects: { event: paymentEvent(deps.baseUrl) } }));
}

/** The failure code of a payment whose card request the acquirer never received (docs/checkout.md, "Reconciliation"). */
export const REQUEST_NEVER_RECEIVED = 'processing_error';

export type Settlement = 'completed' | 'failed' | 'refused' | 'lost';

/** How a completion went; `written` when this call's own statement completed the payment. */
interface Completion {
  outcome: Settlement;
  written: CompletionResult['written'];
}

/**
 * Reconciliation's answer for a payment left `processing`, settled through the same moves as a live
 * answer (each a conditional UPDATE from `processing`, so it lands once whoever gets there first):
 * charged -> the completion transaction below; declined -> failed with the acquirer's code; never
 * received -> failed `processing_error`, final, so a request still in flight can never charge a payment
 * the customer is paying again elsewhere. `needs_attention_at` is cleared: the outcome is known now.
 */
export async function settleLookedUpPayment(deps: CheckoutDeps, em: EntityManager, paymentId: string, found: AuthorizationLookup): Promise<Settlement> {
  const caller: CheckoutCaller = { em, clientAddress: '', requestId: `reconcile-${paymentId}` };
  if (found.kind === 'approved') return (await complete(deps, caller, await findCheckoutPayment(em, paymentId), found.reference, undefined)).outcome;
  const code = found.kind === 'declined' ? found.code : REQUEST_NEVER_RECEIVED;
  const failed = await em.transactional((tx) => failPayment(deps, tx, paymentId, { failureCode: code, needsAttentionAt: null }));
  if (!failed) return 'lost';
  deps.logger.info({ paymentId, code }, 'payment failed (reconciled with the acquirer)');
  deps.metrics.paymentOutcomes.inc({ outcome: `failed_${code}` });
  return 'failed';
}

/**
 * Completion is one statement (completion-statement.ts): the conditional move to `completed`, the ledger
 * entries (credit and fee), the outbox event and its delivery (whose relay wake-up the statement raises), under FOR
 * SHARE locks on the shop and seller rows. Either all of it is there or none of it. A shop deactivated or deleted,
 * or a seller suspended, while the card was at the acquirer is never credited: the statement moves nothing, and
 * the payment fails `shop_unavailable` (refuse, below) and the approval is voided. `payment`: as read before the
 * claim (only its creation fields and shop are used, which do not change).
 */
async function complete(
  deps: CheckoutDeps,
  caller: CheckoutCaller,
  payment: CheckoutPayment,
  reference: string,
  threeDsOutcome: Payment['threeDsOutcome'] | undefined,
): Promise<Completion> {
  let outcome: Settlement | 'retry' = 'retry';
  let written: Completion['written'] = null;
  // A shop whose standing flips back and forth between the two tries: bounded, and left `processing` for
  // reconciliation to settle (it asks the acquirer and completes or refuses then).
  for (let attempt = 0; attempt < 3 && outcome === 'retry'; attempt++) {
    const done = await completeInOneStatement(caller.em, {
      payment,
      shop: payment.shop,
      processorReference: reference,
      threeDsOutcome,
      baseUrl: deps.baseUrl,
    });
    if (done.receipt) deps.wakeMail?.();
    if (done.completed) {
      outcome = 'completed';
      written = done.written;
    }
    else if (takesPayments(done.standing)) outcome = 'lost';
    else outcome = await refuse(deps, caller.em, payment.id, reference, threeDsOutcome);
  }
  if (outcome === 'retry') outcome = 'lost';
  if (outcome === 'completed') {
    deps.logger.info({ requestId: caller.requestId, paymentId: payment.id }, 'payment completed');
    deps.metrics.paymentOutcomes.inc({ outcome: 'completed' });
    // Outside the completion statement, so the card path of every other payment pays nothing for live tests.
    if (payment.test) deps.refundLiveTest?.(payment.id);
  }
  if (outcome === 'refused') await voidApproval(deps, payment.id, reference);
  return { outcome, written };
}

/**
 * The shop could not take the payment when the completion statement ran: fail it `shop_unavailable`, with the
 * standing read again under the same locks in this transaction. If the shop was restored in between (the
 * standing allows it now), the completion is tried again instead.
 */
async function refuse(deps: CheckoutDeps, em: EntityManager, paymentId: string, reference: string, threeDsOutcome: Payment['threeDsOutcome'] | undefined): Promise<Settlement | 'retry'> {
  // Reconciliation does not know how 3-D Secure went: it keeps what is there.
  const threeDs = threeDsOutcome === undefined ? {} : { threeDsOutcome };
  return em.transactional(async (tx) => {
    if (takesPayments(await lockedStandingOfPaymentShop(tx, paymentId))) return 'retry';
    const failed = await failPayment(deps, tx, paymentId, {
      failureCode: SHOP_UNAVAILABLE,
      processorReference: reference,
      needsAttentionAt: null,
      ...threeDs,
    });
    return failed ? 'refused' : 'lost';
  });
}

/**
 * After the refusal has committed (the failed payment and its reference are the durable record): a void
 * that errors leaves the authorization to lapse at the acquirer, and is logged for the operator to void
 * by hand (docs/checkout.md).
 */
async function voidApproval(deps: CheckoutDeps, paymentId: string, reference: string): Promise<void> {
  deps.metrics.paymentOutcomes.inc({ outcome: `failed_${SHOP_UNAVAILABLE}` });
  try {
    await deps.processor.voidAuthorization({ paymentId, reference });
    deps.logger.warn({ paymentId }, 'card approved after the shop stopped taking payments: payment failed, authorization voided');
  } catch (error) {
    deps.logger.error({ paymentId, processorReference: reference, err: (error as Error).message }, 'authorization void failed: void it at the acquirer');
  }
}
