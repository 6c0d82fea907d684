import { brandOf, summarizeCard, validCard } from '../../src/modules/checkout/card-intake';
import { CARD_NUMBER, isCardNumber, isUnexpired, passesLuhn, SECURITY_CODE } from '../../src/modules/checkout/card-predicates';
import { codeOf } from '../support/domain-errors';

/** The edges of the card rules, where a changed comparison or a pattern without anchors would go unnoticed. */
const NOW = new Date(Date.UTC(2026, 10, 23, 12, 0));
const card = { number: '4242424242424242', expMonth: 12, expYear: 2030, securityCode: '123' };

/** `digits` with a last digit that makes it pass Luhn. */
function withCheckDigit(digits: string): string {
  const check = [...'0123456789'].find((d) => passesLuhn(digits + d))!;
  return digits + check;
}

describe('card number', () => {
  test('12 to 19 digits, both ends inclusive; 11 and 20 are refused even when they pass Luhn', () => {
    for (const length of [12, 13, 15, 16, 19]) expect(isCardNumber(withCheckDigit('4'.padEnd(length - 1, '0')))).toBe(true);
    for (const length of [11, 20]) expect(isCardNumber(withCheckDigit('4'.padEnd(length - 1, '0')))).toBe(false);
  });

  test('only digits, from the first character to the last', () => {
    expect(CARD_NUMBER.test('4242424242424242')).toBe(true);
    for (const text of ['x4242424242424242', '4242424242424242x', '4242 4242 4242 4242', '']) expect(CARD_NUMBER.test(text)).toBe(false);
    expect(isCardNumber('4242424242424242x')).toBe(false);
  });

  test('Luhn doubles every second digit from the right, subtracting 9 past 9', () => {
    expect(passesLuhn('18')).toBe(true); // 1*2 + 8 = 10
    expect(passesLuhn('59')).toBe(true); // 5*2 - 9 + 9 = 10
    expect(passesLuhn('19')).toBe(false); // 1*2 + 9 = 11 (doubling the last digit instead would give 10)
    expect(passesLuhn('0')).toBe(true);
    expect(passesLuhn('5')).toBe(false);
    expect(passesLuhn('4242424242424243')).toBe(false);
  });
});

describe('expiry', () => {
  test('months 1 to 12 only, integers only', () => {
    expect(isUnexpired(1, 2030, NOW)).toBe(true);
    expect(isUnexpired(12, 2030, NOW)).toBe(true);
    for (const month of [0, -1, 13, 1.5, Number.NaN]) expect(isUnexpired(month, 2030, NOW)).toBe(false);
  });

  test('years up to 2100 inclusive, integers only', () => {
    expect(isUnexpired(12, 2100, NOW)).toBe(true);
    expect(isUnexpired(1, 2101, NOW)).toBe(false);
    expect(isUnexpired(6, 2030.5, NOW)).toBe(false);
  });

  test('years from 2000: before that the check is refused, not read as a past date', () => {
    const in1999 = new Date(Date.UTC(1999, 0, 15));
    expect(isUnexpired(12, 1999, in1999)).toBe(false);
    expect(isUnexpired(12, 2000, in1999)).toBe(true);
  });

  test('the card expires when its month ends, to the millisecond (UTC)', () => {
    const lastMoment = new Date(Date.UTC(2026, 11, 31, 23, 59, 59, 999));
    expect(isUnexpired(12, 2026, lastMoment)).toBe(true);
    expect(isUnexpired(12, 2026, new Date(Date.UTC(2027, 0, 1)))).toBe(false);
  });
});

describe('security code', () => {
  test('3 or 4 digits and nothing else', () => {
    expect(['123', '1234'].every((code) => SECURITY_CODE.test(code))).toBe(true);
    expect(['12', '12345', 'x123', '123x', '12 3'].some((code) => SECURITY_CODE.test(code))).toBe(false);
  });
});

describe('validCard', () => {
  test('each check answers with its own code, in the order number, expiry, security code', () => {
    expect(codeOf(() => validCard({ ...card, number: '4242424242424241', expMonth: 0, securityCode: '1' }, NOW))).toBe('CARD_NUMBER_INVALID');
    expect(codeOf(() => validCard({ ...card, expMonth: 0, securityCode: '1' }, NOW))).toBe('CARD_EXPIRY_INVALID');
    expect(codeOf(() => validCard({ ...card, expYear: 2025 }, NOW))).toBe('CARD_EXPIRY_INVALID');
    expect(codeOf(() => validCard({ ...card, securityCode: '1' }, NOW))).toBe('CARD_SECURITY_CODE_INVALID');
  });

  test('spaces and dashes anywhere are dropped, and every one of them; the rest of the card is kept', () => {
    expect(validCard({ ...card, number: ' 4242-4242  4242--4242 ' }, NOW)).toEqual({ ...card, number: '4242424242424242' });
  });

  test('the expiry is checked against the time given', () => {
    expect(codeOf(() => validCard({ ...card, expMonth: 11, expYear: 2026 }, NOW))).toBe('ok');
    expect(codeOf(() => validCard({ ...card, expMonth: 11, expYear: 2026 }, new Date(Date.UTC(2026, 11, 1))))).toBe('CARD_EXPIRY_INVALID');
  });
});

describe('brandOf', () => {
  test.each([
    ['4', 'visa'],
    ['51', 'mastercard'],
    ['55', 'mastercard'],
    ['50', 'unknown'],
    ['56', 'unknown'],
    // Mastercard's 2-series: 2221 to 2720, both inclusive.
    ['2201', 'unknown'],
    ['2211', 'unknown'],
    ['2220', 'unknown'],
    ['2221', 'mastercard'],
    ['2229', 'mastercard'],
    ['2230', 'mastercard'],
    ['2299', 'mastercard'],
    ['2300', 'mastercard'],
    ['2699', 'mastercard'],
    ['2700', 'mastercard'],
    ['2719', 'mastercard'],
    ['2720', 'mastercard'],
    ['2721', 'unknown'],
    ['2800', 'unknown'],
    ['34', 'amex'],
    ['37', 'amex'],
    ['35', 'unknown'],
    ['6011', 'discover'],
    ['65', 'discover'],
    ['644', 'discover'],
    ['649', 'discover'],
    ['643', 'unknown'],
    ['6012', 'unknown'],
    ['1234567890123', 'unknown'],
    ['', 'unknown'],
  ])('%s… -> %s', (prefix, brand) => {
    expect(brandOf(prefix.padEnd(16, '0'))).toBe(brand);
  });

  test('brands are read from the first digits only, never from the middle of the number', () => {
    expect(brandOf('1400000000000000')).toBe('unknown');
    expect(brandOf('1510000000000000')).toBe('unknown');
    expect(brandOf('1222100000000000')).toBe('unknown');
    expect(brandOf('1340000000000000')).toBe('unknown');
    expect(brandOf('1601100000000000')).toBe('unknown');
    expect(brandOf('1650000000000000')).toBe('unknown');
    expect(brandOf('1644000000000000')).toBe('unknown');
  });

  test('the summary keeps brand, last four and expiry, nothing else', () => {
    expect(summarizeCard({ ...card, number: '5555555555554444', nameOnCard: 'Ann' })).toEqual({ brand: 'mastercard', last4: '4444', expMonth: 12, expYear: 2030 });
  });
});
