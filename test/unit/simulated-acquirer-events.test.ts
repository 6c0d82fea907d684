import {
  SIMULATED_DISPUTE_REASON,
  SIMULATED_REFUND_FAILURE,
  SimulatedAcquirer,
  TEST_CARDS,
  simulatedDisputeReference,
} from '../../src/platform/processor/simulated-acquirer';
import { memorySimulatedEvents } from '../../src/platform/processor/simulated-event-store';
import { memoryRecords } from '../../src/platform/processor/simulated-operation-store';

/**
 * What the simulated acquirer tells later (src/platform/processor/simulated-acquirer.ts): the dispute card's
 * chargeback, the refund-failure card's REFUND_FAILED, the issuer's reversal on demand. Each event is scheduled once,
 * in the port's terms (an AcquirerEvent, as Adyen's notifications are read), with the money it names.
 */
const DISPUTE_CARD = '4000000000000259';
const REFUND_FAILURE_CARD = '4000000000005126';
const DELAY = 5000;

function simulator() {
  const store = memorySimulatedEvents();
  const acquirer = new SimulatedAcquirer(0, 0, memoryRecords(), { store, delayMs: DELAY });
  const woken: number[] = [];
  acquirer.onScheduled = (delayMs) => woken.push(delayMs);
  const scheduled = () => [...store.kept.values()].map(({ key, delayMs, event }) => ({ key, delayMs, event }));
  return { acquirer, store, woken, scheduled };
}

const pay = (acquirer: SimulatedAcquirer, paymentId: string, number: string) => acquirer.authorize({ paymentId, amount: 2500, currency: 'usd', card: { number } });

test('the new cards are in the table, approved without 3-D Secure, each with what follows', () => {
  expect(TEST_CARDS[DISPUTE_CARD]).toEqual({ kind: 'approve', threeDs: null, afterwards: 'disputed' });
  expect(TEST_CARDS[REFUND_FAILURE_CARD]).toEqual({ kind: 'approve', threeDs: null, afterwards: 'refunds-fail' });
  // The approved card the benchmarks take from the table is still the plain one.
  expect(Object.keys(TEST_CARDS)[0]).toBe('4242424242424242');
});

test('the dispute card is approved, then a notification of chargeback and a chargeback of the whole amount are told after the delay, once', async () => {
  const { acquirer, scheduled, woken } = simulator();
  const answer = await pay(acquirer, 'pay_disputed', DISPUTE_CARD);
  expect(answer).toMatchObject({ kind: 'approved', threeDs: null });
  await pay(acquirer, 'pay_disputed', DISPUTE_CARD);
  const events = scheduled();
  expect(events.map((e) => [e.key, e.delayMs])).toEqual([
    ['dispute-open:pay_disputed', DELAY],
    ['dispute-chargeback:pay_disputed', DELAY],
  ]);
  const reference = simulatedDisputeReference('pay_disputed');
  expect(reference).toMatch(/^sim_dp_[0-9a-f]{24}$/);
  for (const [index, step] of (['open', 'chargeBack'] as const).entries()) {
    expect(events[index].event).toEqual({
      kind: 'dispute', step, paymentId: 'pay_disputed', reference, money: { amount: 2500, currency: 'USD' }, reason: SIMULATED_DISPUTE_REASON, occurredAt: expect.any(Date),
    });
  }
  expect(woken).toEqual([DELAY, DELAY, DELAY, DELAY]);
});

test('a refund of the refund-failure card is carried out, and its failure told after the delay; other cards tell nothing', async () => {
  const { acquirer, scheduled } = simulator();
  const charged = await pay(acquirer, 'pay_refunds_fail', REFUND_FAILURE_CARD);
  const plain = await pay(acquirer, 'pay_plain', '4242424242424242');
  expect(scheduled()).toEqual([]);
  const reference = charged.kind === 'approved' ? charged.reference : '';
  const refunded = await acquirer.refund({ refundId: 'ref_1', paymentId: 'pay_refunds_fail', reference, amount: 1000, currency: 'usd' });
  expect(refunded).toMatchObject({ kind: 'refunded' });
  expect(await acquirer.lookupRefund('ref_1')).toEqual(refunded);
  await acquirer.refund({ refundId: 'ref_plain', paymentId: 'pay_plain', reference: plain.kind === 'approved' ? plain.reference : '', amount: 1000, currency: 'usd' });
  expect(scheduled()).toEqual([
    { key: 'refund-failed:ref_1', delayMs: DELAY, event: { kind: 'refund', refundId: 'ref_1', outcome: { kind: 'declined', reason: SIMULATED_REFUND_FAILURE }, money: { amount: 1000, currency: 'USD' } } },
  ]);
});

test('a voided authorization tells nothing more: its dispute is dropped', async () => {
  const { acquirer, scheduled } = simulator();
  await pay(acquirer, 'pay_voided', DISPUTE_CARD);
  await pay(acquirer, 'pay_kept', DISPUTE_CARD);
  await acquirer.voidAuthorization({ paymentId: 'pay_voided', reference: 'sim_auth_x' });
  expect(scheduled().map((e) => e.key)).toEqual(['dispute-open:pay_kept', 'dispute-chargeback:pay_kept']);
});

test("the issuer's reversal is told at once, once per dispute, and due events are claimed oldest first", async () => {
  const { acquirer, store, scheduled, woken } = simulator();
  const chargeback = { paymentId: 'pay_reversed', reference: 'sim_dp_abc', amount: 2500, currency: 'usd' };
  await acquirer.reverseChargeback(chargeback);
  await acquirer.reverseChargeback(chargeback);
  expect(scheduled()).toEqual([
    { key: 'dispute-reverse:sim_dp_abc', delayMs: 0, event: { kind: 'dispute', step: 'reverse', paymentId: 'pay_reversed', reference: 'sim_dp_abc', money: { amount: 2500, currency: 'USD' }, reason: null, occurredAt: expect.any(Date) } },
  ]);
  expect(woken).toEqual([0, 0]);
  await pay(acquirer, 'pay_later', DISPUTE_CARD);
  const [due] = await store.claimDue(10, 60_000);
  expect(due).toMatchObject({ attempts: 1, event: { step: 'reverse' } });
  // Leased: not claimed again until the lease ends or it is retried; the dispute card's events are not due yet.
  expect(await store.claimDue(10, 60_000)).toEqual([]);
  await store.retryLater(due.id, 0);
  expect((await store.claimDue(10, 60_000)).map((e) => e.attempts)).toEqual([2]);
  await store.told(due.id, 'moved');
  await store.retryLater(due.id, 0);
  expect(await store.claimDue(10, 60_000)).toEqual([]);
});
