import { AccountStatus, exceedsPaymentMaximum, paymentMaximumFor } from '../../src/modules/identity/account-status';
import { ConfigError, loadConfig } from '../../src/shared/config';
import { domainError } from '../../src/shared/errors';

describe('payment maximum by seller account status', () => {
  test('defaults: new 100000 cents, verified none, restricted 10000 cents', () => {
    const { paymentMaximums } = loadConfig({});
    expect([AccountStatus.NEW, AccountStatus.VERIFIED, AccountStatus.RESTRICTED].map((s) => paymentMaximumFor(s, paymentMaximums))).toEqual([100_000, null, 10_000]);
  });

  test('0 means no maximum; other values are taken as cents; anything else stops the start', () => {
    expect(loadConfig({ PAYMENT_MAX_CENTS_NEW: '0', PAYMENT_MAX_CENTS_VERIFIED: '500000' }).paymentMaximums).toEqual({ new: null, verified: 500_000, restricted: 10_000 });
    expect(() => loadConfig({ PAYMENT_MAX_CENTS_RESTRICTED: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig({ PAYMENT_MAX_CENTS_NEW: '10.5' })).toThrow(ConfigError);
  });

  test.each([
    [100_000, 100_000, false],
    [100_001, 100_000, true],
    [99_999, 100_000, false],
    [Number.MAX_SAFE_INTEGER, null, false],
  ])('amount %d against maximum %p: above = %p', (amount, maximum, above) => {
    expect(exceedsPaymentMaximum(amount, maximum)).toBe(above);
  });

  test('the refusal names the maximum that applies', () => {
    expect(domainError('AMOUNT_ABOVE_ACCOUNT_MAXIMUM', 2500).message).toBe('Amount cannot exceed 2500 cents for this seller account');
  });
});
