import { DomainError } from '../../src/shared/errors';
import { createLogger } from '../../src/shared/logger';
import { REQUEST_LOG_RETENTION_DAYS, RequestOutcome, requestLogPage, startRequestLog, type RequestLog, type SeenRequest } from '../../src/modules/request-log/request-log';
import { useModuleDatabase } from '../support/module-database';

/**
 * The request log on the run's database (src/modules/request-log/): entries handed over are written in a batch,
 * a shop reads its own only, newest first, page after page, by outcome, text and date; the sweep deletes what is
 * older than 30 days and nothing else.
 */
const db = useModuleDatabase();
let log: RequestLog;
const DAY_MS = 86_400_000;

beforeAll(() => {
  // Its sweep is run by hand here.
  log = startRequestLog(db.em, createLogger('silent'));
});
afterAll(() => log.stop());

let n = 0;
const seen = (shopId: string, overrides: Partial<SeenRequest> = {}): SeenRequest => ({
  shopId,
  requestId: `req_${++n}`,
  source: 'rest',
  method: 'GET',
  url: '/api/v1/payments/test',
  operationName: undefined,
  status: 200,
  error: null,
  idempotencyKey: undefined,
  durationMs: 2,
  startedAt: Date.now() - 1000 + n,
  ...overrides,
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => null, (e: unknown) => e);
  if (!(error instanceof DomainError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error.code;
}

test('entries handed over are written together on flush, with every field as handed', async () => {
  const { shop } = await db.newShop('log-fields');
  log.record(seen(shop.id, { method: 'POST', url: '/api/v1/payments?x=1', status: 422, error: { code: 'IDEMPOTENCY_KEY_REUSED', message: 'Idempotency-Key was already used with different parameters: amount' }, idempotencyKey: 'order-42', durationMs: 12.7 }));
  log.record(seen(shop.id, { source: 'graphql', method: 'POST', url: '/graphql', operationName: 'Balance' }));
  await log.flush();
  const { items, nextBefore } = await requestLogPage(db.em(), shop.id, {}, 10, null);
  expect(nextBefore).toBeNull();
  expect(items.map((i) => i.path)).toEqual(['/graphql', '/api/v1/payments']);
  expect(items[1]).toMatchObject({
    shopId: shop.id, source: 'rest', method: 'POST', status: 422, errorCode: 'IDEMPOTENCY_KEY_REUSED',
    errorMessage: 'Idempotency-Key was already used with different parameters: amount', idempotencyKey: 'order-42', durationMs: 13,
  });
  expect(items[0]).toMatchObject({ source: 'graphql', operationName: 'Balance', errorCode: null, idempotencyKey: null });
});

test('text that means something to SQL or JSON is kept as handed: quotes, backslashes, placeholders, other scripts', async () => {
  const { shop } = await db.newShop('log-text');
  const awkward = `it's "quoted" \\ back\\slash ? $1 :name ?::jsonb ); drop table api_requests; -- Zahlung 支払い`;
  log.record(seen(shop.id, { url: `/api/v1/payments/${encodeURIComponent(awkward)}`, status: 400, error: { code: 'X', message: awkward }, idempotencyKey: awkward }));
  await log.flush();
  const { items } = await requestLogPage(db.em(), shop.id, {}, 10, null);
  expect(items).toHaveLength(1);
  expect(items[0]).toMatchObject({ path: `/api/v1/payments/${encodeURIComponent(awkward)}`, errorMessage: awkward, idempotencyKey: awkward });
});

test("a shop reads its own entries only: another shop's, even by request id or path, are never in its pages", async () => {
  const mine = (await db.newShop('log-mine')).shop.id;
  const theirs = (await db.newShop('log-theirs')).shop.id;
  log.record(seen(theirs, { requestId: 'req_theirs_secret', url: '/api/v1/payments/pay_theirs000000000000000000' }));
  log.record(seen(mine, { requestId: 'req_mine' }));
  await log.flush();
  const page = await requestLogPage(db.em(), mine, {}, 100, null);
  expect(page.items.map((i) => i.requestId)).toEqual(['req_mine']);
  for (const text of ['req_theirs_secret', 'pay_theirs', '/api/v1']) {
    const found = await requestLogPage(db.em(), mine, { text }, 100, null);
    expect(found.items.every((i) => i.shopId === mine)).toBe(true);
    expect(found.items.map((i) => i.requestId)).not.toContain('req_theirs_secret');
  }
});

test('pages go newest first, each after the last one\'s nextBefore, until none is left', async () => {
  const { shop } = await db.newShop('log-pages');
  const base = Date.now() - 60_000;
  for (let i = 0; i < 7; i++) log.record(seen(shop.id, { requestId: `req_page_${i}`, startedAt: base + i * 1000 }));
  await log.flush();
  const ids: string[] = [];
  let before: string | null = null;
  for (let pages = 0; pages < 5; pages++) {
    const page = await requestLogPage(db.em(), shop.id, {}, 3, before);
    ids.push(...page.items.map((i) => i.requestId));
    before = page.nextBefore;
    if (!before) break;
  }
  expect(ids).toEqual([6, 5, 4, 3, 2, 1, 0].map((i) => `req_page_${i}`));
});

test('entries of the same millisecond keep the order they came in, searched or not (newest first)', async () => {
  const { shop } = await db.newShop('log-ties');
  const at = Date.now() - 5000;
  for (let i = 0; i < 12; i++) log.record(seen(shop.id, { requestId: `req_tie_${i}`, url: `/api/v1/payments/pay_tie${i}`, startedAt: at }));
  await log.flush();
  const expected = Array.from({ length: 12 }, (_, i) => `req_tie_${11 - i}`);
  expect((await requestLogPage(db.em(), shop.id, {}, 100, null)).items.map((i) => i.requestId)).toEqual(expected);
  expect((await requestLogPage(db.em(), shop.id, { text: 'pay_tie' }, 100, null)).items.map((i) => i.requestId)).toEqual(expected);
  const firstPage = await requestLogPage(db.em(), shop.id, { text: 'pay_tie' }, 5, null);
  const secondPage = await requestLogPage(db.em(), shop.id, { text: 'pay_tie' }, 5, firstPage.nextBefore);
  expect([...firstPage.items, ...secondPage.items].map((i) => i.requestId)).toEqual(expected.slice(0, 10));
});

test('filters: failed, client and server errors, text in the path or a whole idempotency key or request id, a date range', async () => {
  const { shop } = await db.newShop('log-filters');
  const yesterday = Date.now() - DAY_MS;
  log.record(seen(shop.id, { requestId: 'ok', status: 200, url: '/api/v1/payments/pay_AAAAAAAAAAAAAAAAAAAAAAAA' }));
  log.record(seen(shop.id, { requestId: 'not-found', status: 404, url: '/api/v1/payments/pay_BBBBBBBBBBBBBBBBBBBBBBBB' }));
  log.record(seen(shop.id, { requestId: 'fault', status: 500 }));
  log.record(seen(shop.id, { requestId: 'keyed', status: 201, idempotencyKey: 'order-77', method: 'POST', url: '/api/v1/payments' }));
  log.record(seen(shop.id, { requestId: 'old', status: 400, startedAt: yesterday }));
  await log.flush();
  const ids = async (filter: Parameters<typeof requestLogPage>[2]) => (await requestLogPage(db.em(), shop.id, filter, 100, null)).items.map((i) => i.requestId).sort();
  expect(await ids({ outcome: RequestOutcome.FAILED })).toEqual(['fault', 'not-found', 'old']);
  expect(await ids({ outcome: RequestOutcome.CLIENT_ERROR })).toEqual(['not-found', 'old']);
  expect(await ids({ outcome: RequestOutcome.SERVER_ERROR })).toEqual(['fault']);
  expect(await ids({ outcome: RequestOutcome.SUCCEEDED })).toEqual(['keyed', 'ok']);
  expect(await ids({ text: 'pay_BBBB' })).toEqual(['not-found']);
  expect(await ids({ text: 'order-77' })).toEqual(['keyed']);
  expect(await ids({ text: 'order-7' })).toEqual([]); // a key is matched whole
  expect(await ids({ text: 'fault' })).toEqual(['fault']);
  expect(await ids({ createdTo: new Date(Date.now() - DAY_MS / 2) })).toEqual(['old']);
  expect(await ids({ createdFrom: new Date(Date.now() - DAY_MS / 2), outcome: RequestOutcome.FAILED })).toEqual(['fault', 'not-found']);
});

test('bad criteria are refused before the database is asked', async () => {
  const { shop } = await db.newShop('log-bad');
  expect(await refusal(requestLogPage(db.em(), shop.id, {}, 0, null))).toBe('LIMIT_INVALID');
  expect(await refusal(requestLogPage(db.em(), shop.id, {}, 101, null))).toBe('LIMIT_INVALID');
  expect(await refusal(requestLogPage(db.em(), shop.id, {}, 10, "1' or '1'='1"))).toBe('REQUEST_LOG_CURSOR_INVALID');
  expect(await refusal(requestLogPage(db.em(), shop.id, { text: 'x'.repeat(256) }, 10, null))).toBe('REQUEST_LOG_SEARCH_INVALID');
  const now = new Date();
  expect(await refusal(requestLogPage(db.em(), shop.id, { createdFrom: now, createdTo: now }, 10, null))).toBe('DATE_RANGE_INVALID');
});

test(`the sweep deletes entries older than ${REQUEST_LOG_RETENTION_DAYS} days, of every shop, and keeps the rest`, async () => {
  const a = (await db.newShop('log-old-a')).shop.id;
  const b = (await db.newShop('log-old-b')).shop.id;
  const longAgo = (days: number) => Date.now() - days * DAY_MS;
  log.record(seen(a, { requestId: 'a-31', startedAt: longAgo(REQUEST_LOG_RETENTION_DAYS + 1) }));
  log.record(seen(b, { requestId: 'b-45', startedAt: longAgo(45) }));
  log.record(seen(a, { requestId: 'a-29', startedAt: longAgo(REQUEST_LOG_RETENTION_DAYS - 1) }));
  log.record(seen(b, { requestId: 'b-now' }));
  await log.flush();
  expect(await log.sweep()).toBeGreaterThanOrEqual(2);
  const left = async (shopId: string) => (await requestLogPage(db.em(), shopId, {}, 100, null)).items.map((i) => i.requestId);
  expect(await left(a)).toEqual(['a-29']);
  expect(await left(b)).toEqual(['b-now']);
});
