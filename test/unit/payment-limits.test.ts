import { checkoutUrlFor, isHttpsUrl, isPaymentId, validateCreatePayment, validMetadata, type CreatePaymentRequest } from '../../src/modules/payments/payment-rules';
import { pageOf, validPageRequest, windowOf } from '../../src/shared/pagination';
import { codeOf } from '../support/domain-errors';

/** Every limit of the create and list rules exactly at its edge, and the patterns tested at both ends. */
const valid = { amount: 50, currency: 'usd', returnUrl: 'https://a.example/' };

const create = (overrides: CreatePaymentRequest) => codeOf(() => validateCreatePayment({ ...valid, ...overrides }));

describe('required fields', () => {
  test('null counts as missing, like an absent field', () => {
    expect(codeOf(() => validateCreatePayment({ ...valid, amount: null }))).toBe('MISSING_FIELD');
    expect(() => validateCreatePayment({ ...valid, amount: null })).toThrow('Missing required field: amount');
    expect(() => validateCreatePayment({ ...valid, currency: null })).toThrow('Missing required field: currency');
    expect(() => validateCreatePayment({ ...valid, currency: undefined })).toThrow('Missing required field: currency');
  });

  test('the currency is exactly usd', () => {
    expect(create({ currency: 'USD' })).toBe('CURRENCY_INVALID');
    expect(create({ currency: 'usd' })).toBe('ok');
  });

  test('a missing, null or empty return URL is required, not invalid', () => {
    for (const returnUrl of [undefined, null, '']) expect(create({ returnUrl })).toBe('RETURN_URL_REQUIRED');
  });
});

describe('lengths exactly at their limits', () => {
  const urlOfLength = (length: number) => {
    const root = 'https://a.example/';
    return root + 'x'.repeat(length - root.length);
  };

  test('a return URL of 2048 characters is accepted, 2049 is too long', () => {
    expect(validateCreatePayment({ ...valid, returnUrl: urlOfLength(2048) }).returnUrl).toHaveLength(2048);
    expect(create({ returnUrl: urlOfLength(2049) })).toBe('RETURN_URL_TOO_LONG');
  });

  test('an e-mail of 254 characters is accepted, 255 is refused', () => {
    const emailOfLength = (length: number) => `${'a'.repeat(64)}@${'b'.repeat(length - 64 - 1 - 4)}.com`;
    expect(emailOfLength(254)).toHaveLength(254);
    expect(validateCreatePayment({ ...valid, customerEmail: emailOfLength(254) }).customerEmail).toBe(emailOfLength(254));
    expect(create({ customerEmail: emailOfLength(255) })).toBe('CUSTOMER_EMAIL_INVALID');
  });

  test('a name of 200 characters (counted as characters, not UTF-16 units) is accepted, 201 is refused', () => {
    expect(create({ customerName: '😀'.repeat(200) })).toBe('ok');
    expect(create({ customerName: 'a'.repeat(201) })).toBe('CUSTOMER_NAME_INVALID');
    expect(create({ customerName: ' \t ' })).toBe('CUSTOMER_NAME_INVALID');
    expect(create({ customerName: null })).toBe('ok');
  });

  test('a metadata key of 40 characters is accepted, 41 is refused', () => {
    expect(validMetadata({ ['k'.repeat(40)]: 'v' })).toEqual({ ['k'.repeat(40)]: 'v' });
    expect(codeOf(() => validMetadata({ ['k'.repeat(41)]: 'v' }))).toBe('METADATA_KEY_INVALID');
    expect(codeOf(() => validMetadata({ k: 'v', '': 'v' }))).toBe('METADATA_KEY_INVALID');
  });

  test('50 metadata keys are accepted, 51 are refused', () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    expect(Object.keys(validMetadata(keys(50)))).toHaveLength(50);
    expect(codeOf(() => validMetadata(keys(51)))).toBe('METADATA_TOO_MANY_KEYS');
  });

  test('limit=1 and page=1 are the smallest accepted; 0 is refused', () => {
    expect(validPageRequest(1, 1)).toEqual({ page: 1, limit: 1 });
    expect(codeOf(() => validPageRequest(1, 0))).toBe('LIMIT_INVALID');
    expect(codeOf(() => validPageRequest(0, 1))).toBe('PAGE_INVALID');
  });
});

describe('metadata values', () => {
  test('strings, booleans (true and false) and finite numbers; nothing else', () => {
    expect(validMetadata({ s: '', t: true, f: false, n: -0.5 })).toEqual({ s: '', t: true, f: false, n: -0.5 });
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, null, {}, []]) {
      expect(codeOf(() => validMetadata({ k: value }))).toBe('METADATA_VALUE_INVALID');
    }
  });

  test('no metadata is an empty object', () => {
    expect(validMetadata(undefined)).toEqual({});
    expect(validMetadata(null)).toEqual({});
    expect(codeOf(() => validMetadata('a'))).toBe('METADATA_NOT_OBJECT');
  });
});

describe('customer e-mail pattern', () => {
  test.each(['ann@example.com', 'ann.lee+shop@mail.example.co.uk', 'a@b.c'])('%s is accepted', (email) => {
    expect(validateCreatePayment({ ...valid, customerEmail: email }).customerEmail).toBe(email);
  });

  test.each([
    'a b@example.com', // a space before the part that alone would look valid
    'ann@example.com x',
    'ann@example.com\n',
    'ann@example',
    'ann@.example.com',
    'ann@example..com',
    'ann@example.com.',
    'ann@exa mple.com',
    'ann@@example.com',
    '@example.com',
    'ann@ex@ample.com',
  ])('%j is refused', (email) => {
    expect(create({ customerEmail: email })).toBe('CUSTOMER_EMAIL_INVALID');
  });
});

describe('payment id pattern', () => {
  const body = 'A'.repeat(12) + 'z9'.repeat(6);

  test('pay_ and exactly 24 letters or digits, nothing before or after', () => {
    expect(isPaymentId(`pay_${body}`)).toBe(true);
    for (const id of [`xpay_${body}`, `pay_${body}x`, `pay_${body.slice(1)}`, `pay_${body.slice(1)}-`, `pay_${body.slice(1)} `, `Pay_${body}`, `pay-${body}`, body]) {
      expect(isPaymentId(id)).toBe(false);
    }
  });
});

describe('return URL shape', () => {
  test.each([
    ['https://:secret@shop.example.com/', false],
    ['https://shop.example.com/\tx', false],
    ['https://shop.example.com/a\nb', false],
    ['https://shop.example.com', true],
  ])('%j -> %s', (url, ok) => {
    expect(isHttpsUrl(url)).toBe(ok);
  });
});

describe('pages', () => {
  test('page and limit default to 1 and 10, and are taken as given otherwise', () => {
    expect(validPageRequest(null, null)).toEqual({ page: 1, limit: 10 });
    expect(validPageRequest(7, null)).toEqual({ page: 7, limit: 10 });
    expect(validPageRequest(null, 3)).toEqual({ page: 1, limit: 3 });
  });

  test('fractions and unsafe integers are refused', () => {
    expect(codeOf(() => validPageRequest(1.5, 10))).toBe('PAGE_INVALID');
    expect(codeOf(() => validPageRequest(1, 2.5))).toBe('LIMIT_INVALID');
    expect(codeOf(() => validPageRequest(Number.MAX_SAFE_INTEGER + 1, 10))).toBe('PAGE_INVALID');
  });

  test('the SQL window of page 3 of 10 skips 20 rows', () => {
    expect(windowOf({ page: 3, limit: 10 })).toEqual({ limit: 10, offset: 20 });
    expect(windowOf({ page: 1, limit: 5 })).toEqual({ limit: 5, offset: 0 });
  });

  test('pages counts a partly filled last page; no rows, no pages', () => {
    expect(pageOf({ page: 2, limit: 10 }, ['x'], 21)).toEqual({ items: ['x'], pagination: { page: 2, limit: 10, total: 21, pages: 3 } });
    expect(pageOf({ page: 1, limit: 10 }, [], 20).pagination.pages).toBe(2);
    expect(pageOf({ page: 1, limit: 10 }, [], 0).pagination.pages).toBe(0);
  });
});

test('the checkout URL is {base_url}/checkout/<payment id>', () => {
  expect(checkoutUrlFor('https://pay.example', 'pay_1')).toBe('https://pay.example/checkout/pay_1');
});
