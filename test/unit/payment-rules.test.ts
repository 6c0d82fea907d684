import { messageOf } from '../support/domain-errors';
import { isHttpsUrl, isPaymentId, isStorableText, newPaymentId, validateCreatePayment, validMetadata } from '../../src/modules/payments/payment-rules';
import { canonicalJson } from '../../src/modules/payments/idempotency';
import { validPageRequest } from '../../src/shared/pagination';

const valid = { amount: 50, currency: 'usd', returnUrl: 'https://a.example/' };

describe('create-payment rules', () => {
  test('the minimum amount is 50 cents, inclusive', () => {
    expect(validateCreatePayment(valid).amount).toBe(50);
    expect(messageOf(() => validateCreatePayment({ ...valid, amount: 49 }))).toBe('Amount must be at least 50 cents');
  });

  test('the first problem in the spec parameter order is the one reported', () => {
    expect(messageOf(() => validateCreatePayment({ currency: 'eur' }))).toBe('Missing required field: amount');
    expect(messageOf(() => validateCreatePayment({ amount: 10, currency: 'eur' }))).toBe('Amount must be at least 50 cents');
    expect(messageOf(() => validateCreatePayment({ amount: 60, currency: 'eur' }))).toBe("Currency must be 'usd'");
  });

  test('amounts must be safe integers', () => {
    for (const amount of [50.5, Number.MAX_SAFE_INTEGER + 1, Infinity, NaN]) {
      expect(messageOf(() => validateCreatePayment({ ...valid, amount }))).toBe('Amount must be an integer number of cents');
    }
    expect(validateCreatePayment({ ...valid, amount: Number.MAX_SAFE_INTEGER }).amount).toBe(Number.MAX_SAFE_INTEGER);
  });

  test('text PostgreSQL would refuse or alter (U+0000, a lone surrogate) is refused with the field\'s own message', () => {
    for (const bad of ['a\u0000b', 'a\ud800b', '\udfff']) {
      expect(messageOf(() => validateCreatePayment({ ...valid, customerName: bad }))).toBe('Customer name must be 1 to 200 characters');
      expect(messageOf(() => validateCreatePayment({ ...valid, customerEmail: `${bad}@example.com` }))).toBe('Customer email must be a valid email address');
      expect(messageOf(() => validateCreatePayment({ ...valid, returnUrl: `https://a.example/${bad}` }))).toBe('Return URL must be a valid HTTPS URL');
    }
    expect(validateCreatePayment({ ...valid, customerName: 'Ann 😀 \u202eLee' }).customerName).toBe('Ann 😀 \u202eLee');
    expect(isStorableText('😀')).toBe(true);
  });

  test('U+0000 or a lone surrogate anywhere in metadata (a key or a string value) is refused, since ::jsonb cannot read it', () => {
    for (const bad of ['a\u0000b', '\u0000', 'a\ud800b', '\udfff']) {
      expect(messageOf(() => validMetadata({ k: bad }))).toBe('Metadata keys and values cannot contain U+0000 or lone surrogates');
      expect(messageOf(() => validMetadata({ ok: 'x', [bad]: 1 }))).toBe('Metadata keys and values cannot contain U+0000 or lone surrogates');
    }
    expect(validMetadata({ 'k😀': 'a😀\u202e', n: 1, b: true })).toEqual({ 'k😀': 'a😀\u202e', n: 1, b: true });
  });

  test('optional customer fields default to null and metadata to {}', () => {
    expect(validateCreatePayment(valid)).toEqual({ ...valid, customerEmail: null, customerName: null, metadata: {} });
  });
});

describe('return URLs', () => {
  test.each([
    ['https://shop.example.com/return?x=1', true],
    ['https://localhost:8443/', true],
    ['http://shop.example.com/', false],
    ['https://', false],
    ['https://user@shop.example.com/', false],
    ['https://shop.example.com/ space', false],
    ['ftp://shop.example.com/', false],
    ['//shop.example.com/', false],
  ])('%s -> %s', (url, ok) => expect(isHttpsUrl(url)).toBe(ok));
});

describe('metadata', () => {
  test('a flat object of strings, finite numbers and booleans passes', () => {
    expect(validMetadata({ a: 'x', b: 1.5, c: false })).toEqual({ a: 'x', b: 1.5, c: false });
  });
  test.each([
    [{ a: [] }, 'Metadata values must be strings, numbers or booleans'],
    [{ '': 'x' }, 'Metadata keys must be 1 to 40 characters'],
    [{ a: 'é'.repeat(2600) }, 'Metadata cannot exceed 5KB'],
    [[], 'Metadata must be a JSON object'],
    [7, 'Metadata must be a JSON object'],
  ])('%j -> %s', (metadata, message) => expect(messageOf(() => validMetadata(metadata))).toBe(message));
  test('the 5KB limit counts UTF-8 bytes of the JSON text', () => {
    expect(() => validMetadata({ a: 'x'.repeat(5120 - 8) })).not.toThrow();
    expect(messageOf(() => validMetadata({ a: 'x'.repeat(5120 - 7) }))).toBe('Metadata cannot exceed 5KB');
  });
});

describe('pagination', () => {
  test('defaults page 1, limit 10; limit at most 100', () => {
    expect(validPageRequest(undefined, undefined)).toEqual({ page: 1, limit: 10 });
    expect(validPageRequest(2, 100)).toEqual({ page: 2, limit: 100 });
    expect(messageOf(() => validPageRequest(0, 10))).toBe('page must be a positive integer');
    expect(messageOf(() => validPageRequest(1, 101))).toBe('limit must be an integer from 1 to 100');
  });
});

describe('payment ids', () => {
  test('pay_ + 24 base62 characters, all distinct, every character used', () => {
    const ids = Array.from({ length: 2000 }, newPaymentId);
    expect(ids.every(isPaymentId)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const seen = new Set(ids.join('').replace(/pay_/g, ''));
    expect(seen.size).toBe(62);
  });
});

describe('canonical JSON (idempotency comparison)', () => {
  test('object key order does not matter; values do', () => {
    expect(canonicalJson({ a: 1, b: [1, { d: 2, c: 3 }] })).toBe(canonicalJson({ b: [1, { c: 3, d: 2 }], a: 1 }));
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
  });
});
