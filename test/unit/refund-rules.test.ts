import { DomainError } from '../../src/shared/errors';
import { AMOUNT_HOLDING_STATUSES, fullyRefunded, refundableRemaining, refundAmountOf } from '../../src/modules/refunds/refund-rules';

const code = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return [(error as DomainError).code, (error as DomainError).message];
  }
  return null;
};

describe('partial refunds: what remains, and what may be asked', () => {
  test('requested, approved, processing and refunded refunds hold their amount; rejected, failed and reversed give it back', () => {
    expect([...AMOUNT_HOLDING_STATUSES].sort()).toEqual(['approved', 'processing', 'refunded', 'requested']);
    const refunds = ['requested', 'approved', 'processing', 'refunded', 'rejected', 'failed', 'reversed'].map((status, i) => ({ status, amount: 10 ** i }));
    expect(refundableRemaining(2_000_000, refunds)).toBe(2_000_000 - 1111);
    expect(refundableRemaining(1000, [])).toBe(1000);
    expect(refundableRemaining(1000, [{ status: 'refunded', amount: 1000 }])).toBe(0);
    // Never negative, even for books broken elsewhere.
    expect(refundableRemaining(1000, [{ status: 'refunded', amount: 1200 }])).toBe(0);
  });

  test('no amount asks for all that remains; an amount is whole cents from 1 up to what remains', () => {
    expect(refundAmountOf(null, 750)).toBe(750);
    expect(refundAmountOf(undefined, 750)).toBe(750);
    expect(refundAmountOf(1, 750)).toBe(1);
    expect(refundAmountOf(750, 750)).toBe(750);
    expect(code(() => refundAmountOf(751, 750))).toEqual(['REFUND_EXCEEDS_REMAINING', 'The refund is more than remains refundable on this payment: 750 cents (7.50 USD), counting requests still open']);
    expect(code(() => refundAmountOf(null, 0))).toEqual(['REFUND_EXCEEDS_REMAINING', 'The refund is more than remains refundable on this payment: 0 cents (0.00 USD), counting requests still open']);
    for (const bad of [0, -5, 1.5, Number.NaN, 2 ** 53]) {
      expect(code(() => refundAmountOf(bad, 2 ** 60))).toEqual(['REFUND_AMOUNT_INVALID', 'A refund amount must be a whole number of cents, at least 1']);
    }
  });

  test('a payment is refunded when the refunds carried out add up to its amount', () => {
    expect(fullyRefunded(1000, [400, 600])).toBe(true);
    expect(fullyRefunded(1000, [400, 599])).toBe(false);
    expect(fullyRefunded(1000, [1000])).toBe(true);
    expect(fullyRefunded(1000, [])).toBe(false);
  });
});
