import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CallLog, isOutage, outcomeOf, type Answer } from './calls';
import { REPOSITORY_ROOT, sleep } from './daemons';
import type { DrillActors } from './service-processes';

/** The exact document the checkout page sends (public callers are allow-listed by it). */
const CHECKOUT_DOCUMENT = readFileSync(path.join(REPOSITORY_ROOT, 'schema/operations/checkout.graphql'), 'utf8');
const CARD = { number: '4242424242424242', expMonth: 12, expYear: new Date().getFullYear() + 3, securityCode: '123' };
/** 100.00 USD: 85.00 credited, so withdrawals of 10.00 always find a balance. */
export const PAYMENT_AMOUNT = 10_000;
const WITHDRAWAL_AMOUNT = 1_000;

const REQUEST_REFUND = `mutation ($paymentId: ID!) { requestRefund(paymentId: $paymentId, reason: "drill: customer returned the goods") { id } }`;
const APPROVE_REFUND = `mutation ($id: ID!) { approveRefund(id: $id) { id status } }`;
const REQUEST_WITHDRAWAL = `mutation ($amount: SafeInt!) { requestWithdrawal(amount: $amount) { id } }`;
const APPROVE_WITHDRAWAL = `mutation ($id: ID!) { approveWithdrawal(id: $id) { id } }`;
const MARK_PAID = `mutation ($id: ID!, $reference: String!) { markWithdrawalPaid(id: $id, reference: $reference) { id } }`;

/** What the service acknowledged: each must be found afterwards, exactly as acknowledged. */
export interface Acknowledged {
  /** Payment id → the Idempotency-Key it was created with. */
  creates: Map<string, string>;
  completions: Set<string>;
  approvedRefunds: Set<string>;
  paidWithdrawals: Set<string>;
}

export interface MixedLoad {
  log: CallLog;
  acknowledged: Acknowledged;
  /** Stops the callers and waits for the calls in flight. */
  stop(): Promise<void>;
}

/**
 * A seller's traffic and the back office's at once: REST creates, card payments on the hosted checkout, refunds
 * (support requests, finance approves; the service's refund job carries them out) and withdrawals (the seller
 * asks, finance approves and marks paid). A call that fails is not retried blindly: a refund or withdrawal whose
 * next step failed waits in its queue and the step is tried again, as an admin would.
 */
export function startMixedLoad(baseUrl: string, actors: DrillActors, options: { creators?: number; payers?: number } = {}): MixedLoad {
  const log = new CallLog();
  const acknowledged: Acknowledged = { creates: new Map(), completions: new Set(), approvedRefunds: new Set(), paidWithdrawals: new Set() };
  const payable: string[] = [];
  const refundable: string[] = [];
  const refundsToApprove: string[] = [];
  const withdrawalsToApprove: string[] = [];
  const withdrawalsToPay: string[] = [];
  let running = true;

  /**
   * A step that met the outage is tried again; one refused for another reason is dropped (a retry after an answer
   * lost in the outage finds the step already done: WITHDRAWAL_STATE_CONFLICT).
   */
  const retry = (answer: Answer | null, queue: string[], id: string) => {
    if (isOutage(answer ? outcomeOf(answer.status, answer.body) : 'network-error')) queue.push(id);
  };

  const graphql = (op: string, bearer: string | null, query: string, variables: Record<string, unknown>, operationName?: string) =>
    log.call(op, `${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}) },
      body: JSON.stringify({ query, variables, operationName }),
    });

  async function create(key: string): Promise<void> {
    const answer = await log.call('rest:create', `${baseUrl}/api/v1/payments`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${actors.apiKey}`, 'Idempotency-Key': key },
      body: JSON.stringify({ amount: PAYMENT_AMOUNT, currency: 'usd', return_url: 'https://shop.example.com/thanks', metadata: { key } }),
    });
    if (answer?.status !== 200) return;
    acknowledged.creates.set(answer.body.data.id, key);
    payable.push(answer.body.data.id);
  }

  async function pay(id: string): Promise<void> {
    const answer = await graphql('graphql:submitCard', null, CHECKOUT_DOCUMENT, { id, card: CARD }, 'SubmitCard');
    if (answer?.body?.data?.submitCard?.status !== 'COMPLETED') return;
    acknowledged.completions.add(id);
    if (acknowledged.completions.size % 3 === 0) refundable.push(id);
  }

  async function refund(): Promise<void> {
    const toApprove = refundsToApprove.shift();
    if (toApprove) return approveRefund(toApprove);
    const paymentId = refundable.shift();
    if (!paymentId) return void (await sleep(100));
    const answer = await graphql('graphql:requestRefund', actors.supportToken, REQUEST_REFUND, { paymentId });
    const id = answer?.ok ? (answer.body.data.requestRefund.id as string) : undefined;
    if (id) await approveRefund(id);
  }

  async function approveRefund(id: string): Promise<void> {
    const answer = await graphql('graphql:approveRefund', actors.financeToken, APPROVE_REFUND, { id });
    if (answer?.ok) acknowledged.approvedRefunds.add(id);
    else retry(answer, refundsToApprove, id);
  }

  async function withdraw(): Promise<void> {
    const toPay = withdrawalsToPay.shift();
    if (toPay) return markPaid(toPay);
    const toApprove = withdrawalsToApprove.shift();
    if (toApprove) return approveWithdrawal(toApprove);
    await sleep(300);
    const answer = await graphql('graphql:requestWithdrawal', actors.apiKey, REQUEST_WITHDRAWAL, { amount: WITHDRAWAL_AMOUNT });
    const id = answer?.ok ? (answer.body.data.requestWithdrawal.id as string) : undefined;
    if (id) await approveWithdrawal(id);
  }

  async function approveWithdrawal(id: string): Promise<void> {
    const answer = await graphql('graphql:approveWithdrawal', actors.financeToken, APPROVE_WITHDRAWAL, { id });
    if (answer?.ok) await markPaid(id);
    else retry(answer, withdrawalsToApprove, id);
  }

  async function markPaid(id: string): Promise<void> {
    const answer = await graphql('graphql:markWithdrawalPaid', actors.financeToken, MARK_PAID, { id, reference: `drill-${id}` });
    if (answer?.ok) acknowledged.paidWithdrawals.add(id);
    else retry(answer, withdrawalsToPay, id);
  }

  /** A loop of one kind of caller; a failed call is followed by a short pause, as a client backs off. */
  async function loop(step: (i: number) => Promise<void>): Promise<void> {
    for (let i = 0; running; i++) {
      const before = log.records.length;
      await step(i);
      const failed = log.records.slice(before).some((r) => r.outcome !== '200');
      if (failed) await sleep(200);
    }
  }

  const tag = Date.now().toString(36);
  const loops = [
    ...Array.from({ length: options.creators ?? 3 }, (_, n) => loop((i) => create(`drill-${tag}-${n}-${i}`))),
    ...Array.from({ length: options.payers ?? 2 }, () =>
      loop(async () => {
        const id = payable.shift();
        if (id) await pay(id);
        else await sleep(20);
      }),
    ),
    loop(refund),
    loop(withdraw),
  ];
  return {
    log,
    acknowledged,
    async stop() {
      running = false;
      await Promise.all(loops);
      // What was left half-done is finished, as the back office would: every request is decided and paid.
      for (let tries = 0; tries < 50 && (refundsToApprove.length || withdrawalsToApprove.length || withdrawalsToPay.length); tries++) {
        if (refundsToApprove.length) await refund();
        if (withdrawalsToApprove.length || withdrawalsToPay.length) await withdraw();
        await sleep(100);
      }
    },
  };
}
