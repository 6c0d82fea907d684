import { CARD_BRANDS, cardBrandOf, groupCardDigits, type CardBrand } from '../../src/modules/checkout/card-brands';
import { brandOf } from '../../src/modules/checkout/card-intake';
import { isCardNumber } from '../../src/modules/checkout/card-predicates';
import { checkCard, securityCodeHint } from '../../checkout-ui/src/card-field-errors';

/**
 * The card brands by their first digits (src/modules/checkout/card-brands.ts): what the checkout page shows while the
 * number is typed, how it groups the digits and what it asks of the security code, and what the server keeps.
 */
const brandOfDigits = (digits: string): CardBrand | null => cardBrandOf(digits)?.brand ?? null;

/** A Luhn-valid number of `length` digits starting with `prefix`. */
function cardNumber(prefix: string, length = 16): string {
  const body = prefix.padEnd(length - 1, '0');
  for (let check = 0; check <= 9; check++) if (isCardNumber(body + check)) return body + check;
  throw new Error('unreachable');
}

describe('each range, at both ends and just outside', () => {
  test.each([
    // Visa: 4.
    ['3', null],
    ['4', 'visa'],
    ['5', null],
    // Mastercard: 51-55, and the 2-series 2221-2720.
    ['50', null],
    ['51', 'mastercard'],
    ['53', 'mastercard'],
    ['55', 'mastercard'],
    ['56', null],
    ['2220', null],
    ['2221', 'mastercard'],
    ['2229', 'mastercard'],
    ['2230', 'mastercard'],
    ['2299', 'mastercard'],
    ['2300', 'mastercard'],
    ['2699', 'mastercard'],
    ['2700', 'mastercard'],
    ['2720', 'mastercard'],
    ['2721', null],
    ['2100', null],
    // American Express: 34 and 37.
    ['33', null],
    ['34', 'amex'],
    ['35', null],
    ['36', null],
    ['37', 'amex'],
    ['38', null],
    // Discover: 6011, 644-649, 65.
    ['6010', null],
    ['6011', 'discover'],
    ['6012', null],
    ['643', null],
    ['644', 'discover'],
    ['647', 'discover'],
    ['649', 'discover'],
    ['64', null],
    ['65', 'discover'],
    ['66', null],
    ['62', null],
    // Nothing starts with 0, 1, 7, 8 or 9 here.
    ['0', null],
    ['1', null],
    ['7', null],
    ['8', null],
    ['9', null],
  ])('%s… is %s', (prefix, brand) => {
    expect(brandOfDigits(prefix.padEnd(16, '0'))).toBe(brand);
    // The server keeps the same brand for the whole number.
    expect(brandOf(cardNumber(prefix))).toBe(brand ?? 'unknown');
  });

  test('every range in the table is met at its first and last prefix, and its brand is the only one there', () => {
    for (const rule of CARD_BRANDS) {
      for (const [first, last] of rule.ranges) {
        expect(first).toHaveLength(last.length);
        expect(first <= last).toBe(true);
        for (const prefix of [first, last]) expect([prefix, brandOfDigits(prefix)]).toEqual([prefix, rule.brand]);
        for (const other of CARD_BRANDS.filter((r) => r !== rule)) {
          for (const [otherFirst, otherLast] of other.ranges) {
            const a = first.slice(0, otherFirst.length);
            const b = last.slice(0, otherFirst.length);
            // No prefix of one brand lies inside another's range: the order of the table never decides.
            expect([rule.brand, other.brand, a.length === otherFirst.length && b >= otherFirst && a <= otherLast]).toEqual([rule.brand, other.brand, false]);
          }
        }
      }
    }
  });
});

describe('while the customer types', () => {
  test.each([
    ['', null],
    ['4', 'visa'],
    ['5', null],
    ['51', 'mastercard'],
    ['2', null],
    ['22', null],
    ['222', null],
    ['2221', 'mastercard'],
    ['272', null],
    ['2720', 'mastercard'],
    ['3', null],
    ['37', 'amex'],
    ['6', null],
    ['60', null],
    ['601', null],
    ['6011', 'discover'],
    ['64', null],
    ['644', 'discover'],
    ['65', 'discover'],
  ])('%j is %s', (typed, brand) => {
    expect(brandOfDigits(typed)).toBe(brand);
  });

  test('only digits are read: spaces, dashes and letters are the caller\'s to drop or refuse', () => {
    for (const typed of ['4242 4242', '4242-4242', ' 4', 'x4', '４２４２', '4e3', '+4']) expect([typed, brandOfDigits(typed)]).toEqual([typed, null]);
  });

  test('the known test cards show their brand', () => {
    expect(['4242424242424242', '5555555555554444', '2223003122003222', '378282246310005', '371449635398431', '6011111111111117', '6445644564456445'].map(brandOfDigits))
      .toEqual(['visa', 'mastercard', 'mastercard', 'amex', 'amex', 'discover', 'discover']);
  });
});

describe('the number grouped as the card prints it', () => {
  const visa = cardBrandOf('4');
  const amex = cardBrandOf('34');
  test.each([
    ['4242424242424242', visa, '4242 4242 4242 4242'],
    ['4242424242424', visa, '4242 4242 4242 4'],
    ['4242424242424242424', visa, '4242 4242 4242 4242 424'],
    ['378282246310005', amex, '3782 822463 10005'],
    ['3782822', amex, '3782 822'],
    ['3782822463100051', amex, '3782 822463 10005 1'],
    ['1234567890123456', null, '1234 5678 9012 3456'],
    ['12345', null, '1234 5'],
    ['4', visa, '4'],
    ['', null, ''],
  ])('%s -> %j', (digits, rule, grouped) => {
    expect(groupCardDigits(digits, rule)).toBe(grouped);
    expect(grouped.replace(/ /g, '')).toBe(digits);
  });
});

describe('the security code the brand asks for', () => {
  const NOW = new Date('2026-11-23T12:00:00Z');
  const entry = (number: string, securityCode: string) => ({ number, expiry: '12/29', securityCode, nameOnCard: '' });

  test('American Express: 4 digits on the front; the others: 3 on the back; a number of no brand: 3 or 4', () => {
    expect(CARD_BRANDS.map((rule) => [rule.brand, rule.securityCode.digits, rule.securityCode.on])).toEqual([
      ['visa', 3, 'back'],
      ['mastercard', 3, 'back'],
      ['amex', 4, 'front'],
      ['discover', 3, 'back'],
    ]);
    expect([null, ...CARD_BRANDS].map(securityCodeHint)).toEqual([
      'checkout.securityCodeHint',
      'checkout.securityCodeHintBack',
      'checkout.securityCodeHintBack',
      'checkout.securityCodeHintFront',
      'checkout.securityCodeHintBack',
    ]);
  });

  test.each([
    ['4242424242424242', '123', null],
    ['4242424242424242', '1234', 'checkout.field.securityCodeBack'],
    ['4242424242424242', '12', 'checkout.field.securityCodeBack'],
    ['5555555555554444', '1234', 'checkout.field.securityCodeBack'],
    ['6011111111111117', '1234', 'checkout.field.securityCodeBack'],
    ['378282246310005', '1234', null],
    ['378282246310005', '123', 'checkout.field.securityCodeFront'],
    ['378282246310005', '12345', 'checkout.field.securityCodeFront'],
    [cardNumber('62'), '123', null],
    [cardNumber('62'), '1234', null],
    [cardNumber('62'), '12', 'checkout.field.securityCode'],
    ['', '1234', null],
  ])('%s with %s: %s', (number, securityCode, error) => {
    const check = checkCard(entry(number, securityCode), NOW);
    expect(check.ok ? null : (check.errors.securityCode ?? null)).toBe(error);
  });
});
