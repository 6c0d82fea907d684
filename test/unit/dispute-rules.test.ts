import { disputeMismatch, sellerShareOf } from '../../src/modules/disputes/dispute-rules';

const payment = { id: 'pay_1', status: 'completed', amount: 5000, currency: 'usd' };

describe('a dispute notice must fit the payment it names', () => {
  test('a completed or refunded payment, in its currency, for at most its amount', () => {
    expect(disputeMismatch(payment, { amount: 5000, currency: 'USD' })).toBeNull();
    expect(disputeMismatch(payment, { amount: 1, currency: 'usd' })).toBeNull();
    expect(disputeMismatch({ ...payment, status: 'refunded' }, { amount: 5000, currency: 'USD' })).toBeNull();
  });

  test('anything else is named for the admins who read it', () => {
    expect(disputeMismatch({ ...payment, status: 'pending' }, { amount: 100, currency: 'USD' })).toBe('payment pay_1 is pending: it was never charged here');
    expect(disputeMismatch({ ...payment, status: 'failed' }, { amount: 100, currency: 'USD' })).toBe('payment pay_1 is failed: it was never charged here');
    expect(disputeMismatch(payment, { amount: 10_000, currency: 'JPY' })).toBe('currency JPY for a payment in usd');
    expect(disputeMismatch(payment, { amount: 5001, currency: 'USD' })).toBe('amount 5001 for a payment of 5000');
    for (const amount of [0, -1, 1.5, Number.NaN]) expect(disputeMismatch(payment, { amount, currency: 'USD' })).toBe(`amount ${amount} for a payment of 5000`);
  });
});

describe("the seller's share of a chargeback", () => {
  test('all of it when nothing was given back; what was not given back otherwise; never below zero', () => {
    expect(sellerShareOf(5000, 5000, 0)).toBe(5000);
    expect(sellerShareOf(5000, 5000, 2000)).toBe(3000);
    expect(sellerShareOf(5000, 5000, 5000)).toBe(0);
    expect(sellerShareOf(1000, 5000, 2000)).toBe(1000);
    expect(sellerShareOf(4000, 5000, 2000)).toBe(3000);
    expect(sellerShareOf(5000, 5000, 6000)).toBe(0);
  });
});
