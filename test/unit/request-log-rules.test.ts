import { loggedPath, requestLogEntry, type SeenRequest } from '../../src/modules/request-log/request-log';

/**
 * What the request log keeps of a request (src/modules/request-log/request-log.ts): the path without its query, never
 * a key, webhook secret or admin token however it is spelt, no control characters, capped lengths.
 */
const KEY = `svc_live_${'a1'.repeat(32)}`;
const seen = (overrides: Partial<SeenRequest> = {}): SeenRequest => ({
  shopId: 'shop_1',
  requestId: 'req_1',
  source: 'rest',
  method: 'GET',
  url: '/api/v1/payments/pay_3kTMd2mXq8uV0aRbWc5pLs7e?expand=x&api_key=secret',
  operationName: undefined,
  status: 200,
  error: null,
  idempotencyKey: undefined,
  durationMs: 3.46,
  startedAt: Date.parse('2026-12-09T10:00:00.000Z'),
  ...overrides,
});

test('the path is kept without its query string or fragment', () => {
  expect(requestLogEntry(seen()).path).toBe('/api/v1/payments/pay_3kTMd2mXq8uV0aRbWc5pLs7e');
  expect(requestLogEntry(seen()).startedAt).toEqual(new Date('2026-12-09T10:00:00.000Z'));
  expect(loggedPath(`/api/v1/payments/${'p'.repeat(600)}`)).toHaveLength(512);
  expect(loggedPath('/api/v1/payments?page=2&limit=10')).toBe('/api/v1/payments');
  expect(loggedPath('/api/v1/payments#frag')).toBe('/api/v1/payments');
});

test.each([
  ['a key in the path', `/api/v1/payments/${KEY}`],
  ['a key percent-encoded', `/api/v1/payments/${encodeURIComponent(KEY).replace(/_/g, '%5F')}`],
  ['part of a key', '/api/v1/svc_live_a1a1a1a1a1/payments'],
  ['a webhook secret', '/api/v1/whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
  ['an admin token', `/api/v1/payments/adm_${'0f'.repeat(32)}`],
])('%s is replaced, the rest of the path kept', (_case, url) => {
  const path = requestLogEntry(seen({ url })).path;
  expect(path).toContain('[redacted]');
  expect(path).not.toMatch(/svc_live_|whsec_|adm_[0-9a-f]{32}|%5F/i);
  expect(path.startsWith('/api/v1/')).toBe(true);
});

test('an Idempotency-Key is kept as sent, capped at 255 characters and without control characters; one holding a key is replaced', () => {
  expect(requestLogEntry(seen({ idempotencyKey: 'order-42' })).idempotencyKey).toBe('order-42');
  expect(requestLogEntry(seen({ idempotencyKey: 'x'.repeat(400) })).idempotencyKey).toHaveLength(255);
  expect(requestLogEntry(seen({ idempotencyKey: 'a\u0000b\u0007c' })).idempotencyKey).toBe('abc');
  expect(requestLogEntry(seen({ idempotencyKey: `retry-${KEY}` })).idempotencyKey).toBe('[redacted]');
  expect(requestLogEntry(seen({ idempotencyKey: undefined })).idempotencyKey).toBeNull();
  expect(requestLogEntry(seen({ idempotencyKey: '' })).idempotencyKey).toBeNull();
});

test('a GraphQL operation name is kept only when it is a name', () => {
  expect(requestLogEntry(seen({ source: 'graphql', operationName: 'Balance' })).operationName).toBe('Balance');
  for (const bad of ['not a name', 'x'.repeat(101), 42, { a: 1 }, `Key${KEY}-`]) {
    expect(requestLogEntry(seen({ source: 'graphql', operationName: bad })).operationName).toBeNull();
  }
});

test('the error, the status and the duration are kept as answered; the duration in whole milliseconds', () => {
  const entry = requestLogEntry(seen({ status: 404, error: { code: 'PAYMENT_NOT_FOUND', message: 'Payment not found' }, durationMs: 3.46 }));
  expect(entry).toMatchObject({ status: 404, errorCode: 'PAYMENT_NOT_FOUND', errorMessage: 'Payment not found', durationMs: 3, method: 'GET', requestId: 'req_1', shopId: 'shop_1' });
  expect(requestLogEntry(seen({ durationMs: -1 })).durationMs).toBe(0);
});
