import { checkCard, parseExpiry } from '../../checkout-ui/src/card-field-errors';
import { isUnexpired, passesLuhn } from '../../src/modules/checkout/card-predicates';

/** The checks the checkout page runs before sending a card (checkout-ui/src/card-field-errors.ts). */
const NOW = new Date('2026-11-23T12:00:00Z');
const entry = (overrides: Partial<Parameters<typeof checkCard>[0]> = {}) =>
  ({ number: '4242 4242 4242 4242', expiry: '12/29', securityCode: '123', nameOnCard: '', ...overrides });

describe('checkout page card checks', () => {
  test('Luhn: test cards pass, a changed digit fails', () => {
    for (const number of ['4242424242424242', '4000000000003220', '4000008400001629', '4100000000000019']) expect(passesLuhn(number)).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
  });

  test.each([
    ['12/29', { month: 12, year: 2029 }],
    ['1/29', { month: 1, year: 2029 }],
    ['0129', { month: 1, year: 2029 }],
    [' 04 / 2030 ', { month: 4, year: 2030 }],
    ['13/29', null],
    ['00/29', null],
    ['12-29', null],
    ['1229x', null],
  ])('expiry %j reads as %j', (text, expected) => {
    expect(parseExpiry(text)).toEqual(expected);
  });

  test('a card is good through the last day of its expiry month', () => {
    expect(isUnexpired(11, 2026, NOW)).toBe(true);
    expect(isUnexpired(10, 2026, NOW)).toBe(false);
    expect(isUnexpired(11, 2026, new Date('2026-12-01T00:00:00Z'))).toBe(false);
  });

  test('a good card is sent as digits and numbers, with an empty name left out', () => {
    expect(checkCard(entry(), NOW)).toEqual({
      ok: true,
      card: { number: '4242424242424242', expMonth: 12, expYear: 2029, securityCode: '123', nameOnCard: null },
    });
    expect(checkCard(entry({ nameOnCard: '  Ann Example ' }), NOW)).toMatchObject({ ok: true, card: { nameOnCard: 'Ann Example' } });
  });

  test('each problem is reported on its field, as the key of its message', () => {
    expect(checkCard(entry({ number: '4242 4242 4242 4241', expiry: '10/26', securityCode: '12' }), NOW)).toEqual({
      ok: false,
      errors: {
        number: 'checkout.field.numberInvalid',
        expiry: 'checkout.field.expiryPast',
        // A Visa by its first digit, wrong number or not: its code is 3 digits, on the back (test/unit/card-brands.test.ts).
        securityCode: 'checkout.field.securityCodeBack',
      },
    });
    expect(checkCard(entry({ number: '', expiry: '', securityCode: '' }), NOW)).toMatchObject({
      ok: false,
      errors: { number: 'checkout.field.numberMissing', expiry: 'checkout.field.expiryMissing', securityCode: 'checkout.field.securityCode' },
    });
    expect(checkCard(entry({ number: '4242' }), NOW)).toMatchObject({ ok: false, errors: { number: expect.any(String) } });
    expect(checkCard(entry({ securityCode: '12345' }), NOW)).toMatchObject({ ok: false, errors: { securityCode: expect.any(String) } });
  });
});
