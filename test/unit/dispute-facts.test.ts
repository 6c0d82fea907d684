import { foldDisputeFacts, movesBetween, type DisputeFact } from '../../src/modules/disputes/dispute-facts';
import type { DisputeStep } from '../../src/modules/disputes/dispute.lifecycle';

/** Facts dated `minute` minutes in, arriving in the order given. */
const facts = (...told: [DisputeStep, number][]): DisputeFact[] =>
  told.map(([step, minute], arrival) => ({ step, occurredAt: new Date(Date.UTC(2026, 0, 1, 0, minute)), arrival }));

describe("a dispute's state from its facts, in the acquirer's order", () => {
  test('in order: each fact moves the dispute along the table', () => {
    expect(foldDisputeFacts(facts(['open', 0], ['chargeBack', 1], ['reverse', 2], ['secondChargeback', 3], ['win', 4]))).toEqual({
      status: 'won', path: ['chargeBack', 'reverse', 'secondChargeback', 'win'], waiting: [],
    });
  });

  test('no facts, or an inquiry alone: notified', () => {
    expect(foldDisputeFacts([])).toEqual({ status: 'notified', path: [], waiting: [] });
    expect(foldDisputeFacts(facts(['open', 0]))).toEqual({ status: 'notified', path: [], waiting: [] });
  });

  test('whatever the arrival order, the same facts give the same state', () => {
    const told: [DisputeStep, number][] = [['chargeBack', 1], ['reverse', 2], ['secondChargeback', 3], ['lose', 4]];
    const orders = [told, [...told].reverse(), [told[2], told[0], told[3], told[1]], [told[3], told[1], told[2], told[0]]];
    for (const order of orders) expect(foldDisputeFacts(facts(...order))).toMatchObject({ status: 'lost', path: ['chargeBack', 'reverse', 'secondChargeback', 'lose'], waiting: [] });
  });

  test('a fact whose predecessor has not arrived waits', () => {
    const history = foldDisputeFacts(facts(['reverse', 2], ['secondChargeback', 3]));
    expect(history.status).toBe('notified');
    expect(history.waiting.map((f) => f.step)).toEqual(['reverse', 'secondChargeback']);
  });

  test('the earliest fact that fits goes first: a later date waits behind an earlier one', () => {
    // Lost at minute 4, reversed at minute 2: the reversal comes first, then the loss no longer fits until a second chargeback.
    const history = foldDisputeFacts(facts(['chargeBack', 1], ['lose', 4], ['reverse', 2]));
    expect(history).toMatchObject({ status: 'reversed', path: ['chargeBack', 'reverse'] });
    expect(history.waiting.map((f) => f.step)).toEqual(['lose']);
  });

  test('facts of one moment go by their place in the flow, then by arrival', () => {
    expect(foldDisputeFacts(facts(['win', 5], ['secondChargeback', 5], ['reverse', 5], ['chargeBack', 5])).path).toEqual(['chargeBack', 'reverse', 'secondChargeback', 'win']);
    // close and lose share a place: the first to arrive goes first.
    expect(foldDisputeFacts(facts(['chargeBack', 1], ['reverse', 2], ['close', 3], ['lose', 3])).status).toBe('closed');
  });

  test('of two facts that both fit, the place in the flow decides a tie of dates, whatever arrived first', () => {
    // From notified both a chargeback and a close fit: at one moment, the chargeback comes first in Adyen's flow.
    expect(foldDisputeFacts(facts(['close', 5], ['chargeBack', 5]))).toMatchObject({ status: 'charged_back', waiting: [expect.objectContaining({ step: 'close' })] });
  });

  test('the date decides before the place: a loss dated before a reversal is applied first', () => {
    // From charged_back both fit; the loss is earlier though later in the flow.
    expect(foldDisputeFacts(facts(['chargeBack', 1], ['reverse', 3], ['lose', 2]))).toMatchObject({ status: 'lost', path: ['chargeBack', 'lose'], waiting: [expect.objectContaining({ step: 'reverse' })] });
  });

  test('facts left waiting are listed in the order they would apply: date, then place, then arrival', () => {
    const won = facts(['chargeBack', 1], ['reverse', 2], ['secondChargeback', 3], ['win', 4], ['lose', 9], ['close', 9], ['reverse', 8]);
    expect(foldDisputeFacts(won).waiting.map((f) => f.step)).toEqual(['reverse', 'lose', 'close']);
    const swapped = facts(['chargeBack', 1], ['reverse', 2], ['secondChargeback', 3], ['win', 4], ['close', 9], ['lose', 9]);
    expect(foldDisputeFacts(swapped).waiting.map((f) => f.step)).toEqual(['close', 'lose']);
  });

  test('an inquiry that closes is closed; a chargeback dated before the close puts it on the chargeback path', () => {
    expect(foldDisputeFacts(facts(['open', 0], ['close', 5])).status).toBe('closed');
    expect(foldDisputeFacts(facts(['open', 0], ['close', 5], ['chargeBack', 1]))).toMatchObject({ status: 'charged_back', waiting: [expect.objectContaining({ step: 'close' })] });
  });
});

describe('the moves between two states', () => {
  test('the shortest run of the table moves, or none for the same state', () => {
    expect(movesBetween('notified', 'notified')).toEqual([]);
    expect(movesBetween('notified', 'second_chargeback')).toEqual(['chargeBack', 'reverse', 'secondChargeback']);
    expect(movesBetween('charged_back', 'won')).toEqual(['lose', 'win']);
    expect(movesBetween('reversed', 'lost')).toEqual(['secondChargeback', 'lose']);
  });

  test('none from a state no move leaves toward it', () => {
    expect(movesBetween('closed', 'charged_back')).toBeNull();
    expect(movesBetween('won', 'lost')).toBeNull();
    expect(movesBetween('lost', 'reversed')).toBeNull();
  });
});
