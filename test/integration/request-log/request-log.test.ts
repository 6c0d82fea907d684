import request from 'supertest';
import { signUpSeller } from '../../support/dashboard-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

/**
 * The request log over HTTP (docs/dashboard.md, "Request log"): each request of a shop's key, REST and GraphQL, with
 * its status, the catalogue's code and message, its Idempotency-Key and duration; never a body, a key or a secret;
 * nothing of anonymous callers, wrong keys or dashboard sessions; and no shop reads another's.
 */
const RATE_LIMIT = 40;
const service = useTestService({ RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT), AUTH_FAILURES_PER_MINUTE: '10000' });

interface Entry {
  requestId: string;
  source: string;
  method: string;
  path: string;
  operationName: string | null;
  status: number;
  errorCode: string | null;
  errorMessage: string | null;
  idempotencyKey: string | null;
  durationMs: number;
  startedAt: string;
}
const FIELDS = 'requestId source method path operationName status errorCode errorMessage idempotencyKey durationMs startedAt';

const graphql = (authorization: string, query: string, variables: object = {}, operationName?: string) =>
  request(service.url).post('/graphql').set('Authorization', authorization).send({ query, variables, operationName });

async function logOf(apiKey: string, filter: object = {}, limit = 100): Promise<Entry[]> {
  const res = await graphql(`Bearer ${apiKey}`, `query Log($filter: RequestLogFilter, $limit: Int) { requestLog(filter: $filter, limit: $limit) { items { ${FIELDS} } } }`, { filter, limit }, 'Log');
  expect(res.body.errors).toBeUndefined();
  return res.body.data.requestLog.items;
}

/** The log once the entries of the requests made have been written (a moment after each answer). */
async function logOnceWritten(apiKey: string, requestIds: string[]): Promise<Entry[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const entries = await logOf(apiKey);
    if (requestIds.every((id) => entries.some((e) => e.requestId === id)) || Date.now() > deadline) return entries;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const idOf = (res: { headers: Record<string, string> }) => res.headers['x-request-id'];

test('REST requests of a key: method, path without its query, status, the error\'s code and message, the Idempotency-Key, duration and time', async () => {
  const shop = await service.createShop();
  const seller = sellerClient(service.url, shop.apiKey);
  const before = Date.now();
  const created = await seller.create(VALID_PAYMENT, { 'Idempotency-Key': 'order-9' });
  const reused = await seller.create({ ...VALID_PAYMENT, amount: 999 }, { 'Idempotency-Key': 'order-9' });
  const missing = await seller.retrieve('pay_000000000000000000000000');
  const listed = await seller.list('?page=1&limit=2&status=pending');
  const unknown = await request(service.url).get('/api/v1/refunds').set('Authorization', `Bearer ${shop.apiKey}`);
  const ids = [created, reused, missing, listed, unknown].map(idOf);
  const entries = await logOnceWritten(shop.apiKey, ids);
  const byId = (res: { headers: Record<string, string> }) => entries.find((e) => e.requestId === idOf(res));

  expect(byId(created)).toMatchObject({ source: 'rest', method: 'POST', path: '/api/v1/payments', status: 200, errorCode: null, errorMessage: null, idempotencyKey: 'order-9' });
  expect(byId(reused)).toMatchObject({ status: 422, errorCode: 'IDEMPOTENCY_KEY_REUSED', errorMessage: reused.body.error, idempotencyKey: 'order-9' });
  expect(byId(missing)).toMatchObject({ method: 'GET', path: '/api/v1/payments/pay_000000000000000000000000', status: 404, errorCode: 'PAYMENT_NOT_FOUND', errorMessage: 'Payment not found' });
  expect(byId(listed)).toMatchObject({ path: '/api/v1/payments', status: 200 });
  expect(byId(unknown)).toMatchObject({ path: '/api/v1/refunds', status: 404, errorCode: 'ROUTE_NOT_FOUND', errorMessage: 'Route not found' });
  for (const entry of entries) {
    expect(entry.durationMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(entry.startedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(entry.startedAt)).toBeLessThanOrEqual(Date.now());
  }
});

test('GraphQL requests of a key: the operation name, and the first error\'s code and message, also when the answer is HTTP 200', async () => {
  const shop = await service.createShop();
  const ok = await graphql(`Bearer ${shop.apiKey}`, 'query Balance { balance { available } }', {}, 'Balance');
  const refused = await graphql(`Bearer ${shop.apiKey}`, 'query Missing { payment(id: "pay_000000000000000000000000") { id } }', {}, 'Missing');
  const badDocument = await graphql(`Bearer ${shop.apiKey}`, '{ nonsense }');
  expect(refused.status).toBe(200);
  const entries = await logOnceWritten(shop.apiKey, [ok, refused, badDocument].map(idOf));
  const byId = (res: { headers: Record<string, string> }) => entries.find((e) => e.requestId === idOf(res));
  expect(byId(ok)).toMatchObject({ source: 'graphql', method: 'POST', path: '/graphql', operationName: 'Balance', status: 200, errorCode: null });
  expect(byId(refused)).toMatchObject({ operationName: 'Missing', status: 200, errorCode: 'PAYMENT_NOT_FOUND', errorMessage: 'Payment not found' });
  expect(byId(badDocument)).toMatchObject({ operationName: null, status: 400, errorCode: 'GRAPHQL_VALIDATION_FAILED' });
});

test('a key over its rate limit: its 429s are in its log, with the message answered', async () => {
  const seller = await signUpSeller(service.url);
  const client = sellerClient(service.url, seller.apiKey);
  let limited: request.Response | undefined;
  for (let i = 0; i <= RATE_LIMIT && !limited; i++) {
    const res = await client.test();
    if (res.status === 429) limited = res;
  }
  expect(limited).toBeDefined();
  // Read by the seller's dashboard session, whose requests count apart from the key's.
  const deadline = Date.now() + 10_000;
  let entry: Entry | undefined;
  while (!entry && Date.now() < deadline) {
    const res = await request(service.url).post('/graphql').set('Cookie', seller.session.cookie).set('X-CSRF-Token', seller.session.csrfToken)
      .send({ query: `{ requestLog(filter: { outcome: CLIENT_ERROR }) { items { ${FIELDS} } } }` });
    entry = (res.body.data.requestLog.items as Entry[]).find((e) => e.requestId === idOf(limited!));
  }
  expect(entry).toMatchObject({ path: '/api/v1/payments/test', status: 429, errorCode: 'RATE_LIMITED', errorMessage: limited!.body.error });
});

test('never a body, a key, a webhook secret or a query string; nothing of anonymous callers, wrong keys, admins or dashboard sessions', async () => {
  const signedUp = await signUpSeller(service.url);
  const shop = await service.createShop();
  const seller = sellerClient(service.url, signedUp.apiKey);
  const secretEmail = 'very-private-customer@example.com';
  const made = [
    await seller.create({ ...VALID_PAYMENT, customer_email: secretEmail, metadata: { note: 'body-only' } }),
    await request(service.url).get(`/api/v1/payments/${signedUp.apiKey}`).set('Authorization', `Bearer ${signedUp.apiKey}`),
    await request(service.url).get(`/api/v1/payments?api_key=${signedUp.apiKey}&secret=${shop.webhookSecret}`).set('Authorization', `Bearer ${signedUp.apiKey}`),
    await request(service.url).get(`/api/v1/${encodeURIComponent(shop.webhookSecret)}`).set('Authorization', `Bearer ${signedUp.apiKey}`),
  ];
  // Not the shop's: no key, a wrong key, the dashboard session of the same seller, the public document.
  await request(service.url).get('/api/v1/payments');
  await request(service.url).get('/api/v1/payments').set('Authorization', `Bearer svc_live_${'9'.repeat(64)}`);
  await request(service.url).post('/graphql').set('Cookie', signedUp.session.cookie).set('X-CSRF-Token', signedUp.session.csrfToken).send({ query: '{ currentSeller { id } }' });
  await request(service.url).get('/api/v1/openapi.json');
  const entries = await logOnceWritten(signedUp.apiKey, made.map(idOf));
  // Besides what was made, only this test's own readings of the log (by the key: they are API requests too).
  expect(entries.filter((e) => e.operationName !== 'Log').map((e) => e.requestId).sort()).toEqual(made.map(idOf).sort());
  const stored = JSON.stringify(await service.em().getConnection().execute('select * from "api_requests" where "shop_id" = ?', [signedUp.shopId]));
  for (const secret of [signedUp.apiKey, signedUp.apiKey.slice('svc_live_'.length, 30), shop.webhookSecret, secretEmail, 'body-only', 'api_key=', signedUp.session.csrfToken]) {
    expect({ secret, found: stored.includes(secret) }).toEqual({ secret, found: false });
  }
  expect(entries.filter((e) => e.path.includes('[redacted]'))).toHaveLength(2);
});

test("no shop reads another's log: by key or by session, whatever the filter or cursor", async () => {
  const owner = await signUpSeller(service.url);
  const other = await signUpSeller(service.url);
  const secretPath = await sellerClient(service.url, owner.apiKey).retrieve('pay_OWNERSOWNERSOWNERSOWNER0');
  await logOnceWritten(owner.apiKey, [idOf(secretPath)]);
  const ownerPage = await graphql(`Bearer ${owner.apiKey}`, '{ requestLog(limit: 1) { items { requestId } nextBefore } }');
  const ownerCursor = ownerPage.body.data.requestLog.nextBefore as string | null;

  const readAs = async (auth: (req: request.Test) => request.Test, filter: object, before: string | null) => {
    const res = await auth(request(service.url).post('/graphql')).send({
      query: `query($f: RequestLogFilter, $b: String) { requestLog(filter: $f, before: $b, limit: 100) { items { requestId path } } }`,
      variables: { f: filter, b: before },
    });
    expect(res.body.errors).toBeUndefined();
    return res.body.data.requestLog.items as { requestId: string; path: string }[];
  };
  const asKey = (req: request.Test) => req.set('Authorization', `Bearer ${other.apiKey}`);
  const asSession = (req: request.Test) => req.set('Cookie', other.session.cookie).set('X-CSRF-Token', other.session.csrfToken);
  for (const auth of [asKey, asSession]) {
    for (const [filter, before] of [[{}, null], [{ text: idOf(secretPath) }, null], [{ text: 'OWNERS' }, null], [{}, ownerCursor]] as const) {
      const seen = await readAs(auth, filter, before);
      expect(seen.map((e) => e.requestId)).not.toContain(idOf(secretPath));
      expect(seen.some((e) => e.path.includes('OWNERS'))).toBe(false);
    }
  }
  // The field takes no shop: there is nothing to name another with.
  const naming = await graphql(`Bearer ${other.apiKey}`, `{ requestLog(shopId: "${owner.shopId}") { items { requestId } } }`);
  expect(naming.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
});
