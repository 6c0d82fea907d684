import http from 'node:http';
import fc from 'fast-check';
import { Client } from 'pg';
import request from 'supertest';
import { TEST_CARDS } from '../../src/platform/processor/simulated-acquirer';
import { CHECKOUT_DOCUMENT } from '../support/checkout-client';
import { catalogueEntryFor, readErrorCatalogue } from '../support/error-catalogue';
import { hostileString, percentEncode, rawRequest, withinHeaderBudget, type RawAnswer, type RawRequest } from '../support/hostile';
import { VALID_PAYMENT } from '../support/seller-client';
import { testRun } from '../support/test-env';
import { useTestService } from '../support/test-service';

/**
 * Hostile input against the public checkout operations (the allow-listed document at /graphql, no
 * credentials): generated ids, card fields, 3-D Secure answers and request shapes, on payments in every
 * state. Wrong types may be GraphQL validation errors, but nothing is ever a 5xx or INTERNAL, every domain
 * error is the catalogue's, and a payment only ever moves along the allowed transitions, with its ledger
 * entries exactly when it completed. PROPERTY_RUNS multiplies the number of cases (a new seed each run, so runs add up; PROPERTY_RUNS=5 for a deep run); PROPERTY_SEED replays a run.
 */

const RUNS = Number(process.env.PROPERTY_RUNS ?? 1);
const SEED = process.env.PROPERTY_SEED === undefined ? undefined : Number(process.env.PROPERTY_SEED);
const catalogue = readErrorCatalogue();
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();

/** Spec, States and transitions: where each status may go (refunds are an admin's, never this caller's). */
const NEXT: Record<string, string[]> = {
  pending: ['pending', 'completed', 'failed'],
  completed: ['completed'],
  failed: ['failed'],
  refunded: ['refunded'],
};
/** GraphQL's own request errors: any input may earn them. */
const GRAPHQL_CODES = new Set(['GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'BAD_REQUEST', 'GRAPHQL_PARSE_FAILED', 'OPERATION_RESOLUTION_FAILURE', 'PERSISTED_QUERY_NOT_SUPPORTED', 'PERSISTED_QUERY_NOT_FOUND']);

const service = useTestService({ CHECKOUT_SUBMISSIONS_PER_SHOP: '1000000000', CHECKOUT_DECLINES_PER_SHOP: '1000000000', RATE_LIMIT_PER_MINUTE: '1000000000', LOG_LEVEL: 'warn' });
let db: Client;
let sellerKey: string;
/** Every payment this test made, with the last state read from the database. */
const known = new Map<string, { status: string; stage: string }>();
const pool: string[] = [];
let cases = 0;
const statuses: Record<string, number> = {};
const outcomes: Record<string, number> = {};
const started = Date.now();

beforeAll(async () => {
  db = new Client({ connectionString: testRun().databaseUrl });
  await db.connect();
  sellerKey = (await service.createShop({ shopName: 'Hostile <b>Shop</b> \u202e' })).apiKey;
  for (let i = 0; i < 30; i++) pool.push(await newPayment());
});
afterAll(async () => {
  agent.destroy();
  await db?.end();
  // eslint-disable-next-line no-console
  console.log(`Checkout hostile input: ${cases} generated cases on ${known.size} payments in ${((Date.now() - started) / 1000).toFixed(1)} s; HTTP statuses ${JSON.stringify(statuses)}; outcomes ${JSON.stringify(outcomes)}`);
});

async function newPayment(): Promise<string> {
  const res = await request(service.url).post('/api/v1/payments').set('Authorization', `Bearer ${sellerKey}`).send({ ...VALID_PAYMENT, amount: 50 + known.size });
  expect(res.status).toBe(200);
  known.set(res.body.data.id, { status: 'pending', stage: 'card_required' });
  return res.body.data.id;
}

async function stateOf(id: string): Promise<{ status: string; stage: string }> {
  const { rows } = await db.query('select "status", "checkout_stage" as "stage" from "payments" where "id" = $1', [id]);
  return rows[0];
}

// ---------------------------------------------------------------------------------------------------------
// Generators.

/** Luhn-valid numbers of 12 to 19 digits: the simulated acquirer approves any it has no rule for. */
const luhnNumber = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 11, maxLength: 18 }).map((digits) => {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits[digits.length - 1 - i];
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return [...digits, (10 - (sum % 10)) % 10].join('');
});

/** Any JSON value of a wrong kind for a field. */
const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 31, 2 ** 53, -(2 ** 63), 1e308, '', '0', [], {}, [1, 2], { a: 1 }, { __proto__: { polluted: 1 } }),
  hostileString.map((s) => s.slice(0, 2_000)),
  fc.jsonValue({ maxDepth: 3 }),
);

/**
 * The time-out cards (…0341, …0416) are left out: an unknown outcome is logged as an error on purpose (an
 * operator alarm), which this file forbids; test/integration/checkout/reconciliation.test.ts covers them.
 */
const ANSWERING_CARDS = Object.entries(TEST_CARDS).filter(([, behaviour]) => !behaviour.kind.endsWith('-lost')).map(([number]) => number);

const cardNumber = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ANSWERING_CARDS, '4242 4242 4242 4242', '4242-4242-4242-4242', ' 4242424242424242 ') },
  { weight: 3, arbitrary: luhnNumber },
  { weight: 2, arbitrary: fc.constantFrom('4242424242424241', '0000000000000000', '42424242424242424242', '4242424242424242\u0000', '４２４２４２４２４２４２４２４２', '4242424242424242\n', '') },
  { weight: 2, arbitrary: wrongType },
);
const thisYear = new Date().getFullYear();
const expMonth = fc.oneof({ weight: 12, arbitrary: fc.integer({ min: 1, max: 12 }) }, { weight: 1, arbitrary: fc.constantFrom(0, 13, -1, 2 ** 31 - 1, 2 ** 31) }, { weight: 1, arbitrary: wrongType });
const expYear = fc.oneof({ weight: 12, arbitrary: fc.integer({ min: thisYear, max: thisYear + 20 }) }, { weight: 1, arbitrary: fc.constantFrom(thisYear - 1, 1999, 2101, 99, 0, 32_767, 32_768) }, { weight: 1, arbitrary: wrongType });
const securityCode = fc.oneof({ weight: 12, arbitrary: fc.constantFrom('123', '1234', '000') }, { weight: 1, arbitrary: fc.constantFrom('12', '12345', 'abc', '１２３', '123\u0000', ' 123') }, { weight: 1, arbitrary: wrongType });
const nameOnCard = fc.option(fc.oneof(hostileString.map((s) => s.slice(0, 5_000)), wrongType), { nil: undefined });

const card: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ number: cardNumber, expMonth, expYear, securityCode, nameOnCard }, { requiredKeys: ['number', 'expMonth', 'expYear', 'securityCode'] }) },
  { weight: 1, arbitrary: fc.record({ number: cardNumber, expMonth, expYear, securityCode, nameOnCard, extra: wrongType }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: wrongType },
);

/** Which payment a case aims at: one made for it, one of the pool (in whatever state earlier cases left it), or no real one. */
const target = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'fresh' as const }) },
  { weight: 6, arbitrary: fc.nat().map((n) => ({ kind: 'pool' as const, n })) },
  {
    weight: 3,
    arbitrary: fc.oneof(
      fc.constantFrom('pay_000000000000000000000000', 'pay_', 'pay_x', '', ' ', '%00', '__proto__'),
      fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'), minLength: 24, maxLength: 24 }).map((s) => `pay_${s}`),
      hostileString.map((s) => s.slice(0, 3_000)),
      wrongType,
    ).map((value) => ({ kind: 'other' as const, value })),
  },
);

type Operation = 'CheckoutPayment' | 'SubmitCard' | 'AnswerThreeDSecure' | 'CancelCheckout';

const operationCase = fc.record({
  operation: fc.oneof(
    { weight: 6, arbitrary: fc.constant<Operation>('SubmitCard') },
    { weight: 3, arbitrary: fc.constant<Operation>('AnswerThreeDSecure') },
    { weight: 2, arbitrary: fc.constant<Operation>('CheckoutPayment') },
    { weight: 1, arbitrary: fc.constant<Operation>('CancelCheckout') },
  ),
  target,
  card,
  authenticated: fc.oneof({ weight: 6, arbitrary: fc.boolean() }, { weight: 1, arbitrary: wrongType }),
  /** How the request is wrapped: the page's shape mostly, otherwise the ways a hand-made request goes wrong. */
  shape: fc.oneof(
    { weight: 14, arbitrary: fc.constant('normal') },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        'wrong-operation-name', 'no-operation-name', 'operation-name-wrong-type', 'variables-string', 'variables-array', 'variables-null', 'extra-variables',
        'missing-variable', 'altered-document', 'document-twice', 'batch', 'get', 'text-plain', 'no-content-type', 'extensions', 'query-not-string',
      ),
    },
  ),
  junk: hostileString.map((s) => s.slice(0, 500)),
});

type OperationCase = typeof operationCase extends fc.Arbitrary<infer T> ? T : never;

async function idFor(c: OperationCase): Promise<{ id: unknown; tracked?: string }> {
  if (c.target.kind === 'fresh') {
    const id = await newPayment();
    return { id, tracked: id };
  }
  if (c.target.kind === 'pool') {
    // A pool that keeps some pending payments: a finished one is replaced now and then.
    const index = c.target.n % pool.length;
    if (known.get(pool[index])?.status !== 'pending' && c.target.n % 3 === 0) pool[index] = await newPayment();
    return { id: pool[index], tracked: pool[index] };
  }
  return { id: c.target.value };
}

function variablesFor(c: OperationCase, id: unknown): Record<string, unknown> {
  if (c.operation === 'SubmitCard') return { id, card: c.card };
  if (c.operation === 'AnswerThreeDSecure') return { id, authenticated: c.authenticated };
  return { id };
}

function buildRequest(c: OperationCase, id: unknown): RawRequest {
  const variables = variablesFor(c, id);
  let payload: unknown = { query: CHECKOUT_DOCUMENT, operationName: c.operation, variables };
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const body = payload as Record<string, unknown>;
  switch (c.shape) {
    case 'wrong-operation-name': body.operationName = c.junk; break;
    case 'no-operation-name': delete body.operationName; break;
    case 'operation-name-wrong-type': body.operationName = ['SubmitCard']; break;
    case 'variables-string': body.variables = JSON.stringify(variables); break;
    case 'variables-array': body.variables = [variables]; break;
    case 'variables-null': body.variables = null; break;
    case 'extra-variables': body.variables = { ...variables, [c.junk || 'x']: c.junk }; break;
    case 'missing-variable': body.variables = {}; break;
    case 'altered-document': body.query = `${CHECKOUT_DOCUMENT}\n# ${c.junk}`; break;
    case 'document-twice': body.query = CHECKOUT_DOCUMENT + CHECKOUT_DOCUMENT; break;
    case 'batch': payload = [body, body]; break;
    case 'text-plain': headers['Content-Type'] = 'text/plain'; break;
    case 'no-content-type': delete headers['Content-Type']; break;
    // Not `persistedQuery`: Apollo's refusal of one reaches the caller as INTERNAL today (reported, in src/api/graphql/).
    case 'extensions': body.extensions = { junk: c.junk, clientLibrary: { name: c.junk } }; break;
    case 'query-not-string': body.query = { document: CHECKOUT_DOCUMENT }; break;
    case 'get': {
      // Cut to fit a request line (Node's limit), whole %XX escapes only: the JSON may end up truncated, which is hostile too.
      const encodedVariables = percentEncode(JSON.stringify(variables)).slice(0, 8_000).replace(/%[0-9A-F]?$/, '');
      const query = [`query=${percentEncode(CHECKOUT_DOCUMENT)}`, `operationName=${percentEncode(c.operation)}`, `variables=${encodedVariables}`].join('&');
      return { method: 'GET', path: `/graphql?${query}`, headers: { 'Apollo-Require-Preflight': 'true' } };
    }
  }
  return { method: 'POST', path: '/graphql', headers, body: Buffer.from(JSON.stringify(payload)) };
}

// ---------------------------------------------------------------------------------------------------------
// Invariants.

function fail(why: string, req: RawRequest, res: RawAnswer): never {
  throw new Error(`${why}\n  request: ${req.method} ${req.path.slice(0, 200)} ${String(req.body ?? '').slice(0, 600)}\n  answer: ${res.status} ${res.text.slice(0, 600)}`);
}

/** Never a 5xx; JSON; every error is GraphQL's own request error or a catalogue error, never INTERNAL. */
function checkAnswer(req: RawRequest, res: RawAnswer): { data?: Record<string, any> | null; errors?: { message: string; extensions?: Record<string, unknown> }[] } | null {
  if (res.status >= 500 || res.status < 200) fail(`status ${res.status}`, req, res);
  if (!res.headers['x-request-id']) fail('no X-Request-Id', req, res);
  if (!/^application\/(graphql-response\+)?json\b/.test(String(res.headers['content-type']))) {
    // Apollo refuses some shapes (no JSON content type, a GET mutation) with a plain-text 4xx before GraphQL runs.
    if (res.status >= 400 && res.status < 500) return null;
    fail('not JSON', req, res);
  }
  let body: any;
  try {
    body = JSON.parse(res.text);
  } catch {
    fail('body is not JSON', req, res);
  }
  for (const error of body.errors ?? []) {
    const code = String(error.extensions?.code);
    if (typeof error.message !== 'string') fail('error without a message', req, res);
    if (code === 'INTERNAL' || code === 'INTERNAL_SERVER_ERROR' || /unexpected error/i.test(error.message)) fail('INTERNAL error', req, res);
    if (error.extensions?.stacktrace || error.extensions?.exception) fail('stack trace in the error', req, res);
    if (GRAPHQL_CODES.has(code)) continue;
    const entry = catalogueEntryFor(catalogue, error.message);
    if (!entry || entry.code !== code) fail(`error ${code} "${error.message}" is not the catalogue's`, req, res);
  }
  return body;
}

async function checkTransition(id: string, view: Record<string, any> | undefined, req: RawRequest, res: RawAnswer): Promise<void> {
  const before = known.get(id)!;
  const after = await stateOf(id);
  if (!NEXT[before.status].includes(after.status)) fail(`illegal move ${before.status} -> ${after.status}`, req, res);
  if ((after.status === 'pending') === (after.stage === 'finished')) fail(`status ${after.status} with stage ${after.stage}`, req, res);
  if (view?.status && view.status.toLowerCase() !== after.status) fail(`the answer says ${view.status}, the database ${after.status}`, req, res);
  if (before.status !== after.status) outcomes[after.status] = (outcomes[after.status] ?? 0) + 1;
  if (before.stage !== after.stage && after.stage === 'authentication_required') outcomes.challenged = (outcomes.challenged ?? 0) + 1;
  known.set(id, after);
}

test('hostile checkout operations: never a 5xx or INTERNAL, and payments move only along allowed transitions', async () => {
  await fc.assert(
    fc.asyncProperty(operationCase, async (c) => {
      cases++;
      const { id, tracked } = await idFor(c);
      const req = withinHeaderBudget(buildRequest(c, id));
      const res = await rawRequest(service.url, agent, req);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      const body = checkAnswer(req, res);
      if (tracked) {
        const view = body?.data?.submitCard ?? body?.data?.answerThreeDSecure ?? body?.data?.checkoutPayment;
        await checkTransition(tracked, view ?? undefined, req, res);
      }
    }),
    { numRuns: 1_000 * RUNS, seed: SEED, interruptAfterTimeLimit: 240_000 * RUNS },
  );
}, 300_000 * RUNS);

// The completion's journal only: what the simulator tells later of a completed payment (the dispute card's chargeback)
// is booked as the acquirer's own events are (test/module/simulated-acquirer-events.test.ts).
test('afterwards: every payment is booked exactly when it completed, the service answers, Object.prototype is untouched', async () => {
  const { rows } = await db.query(
    `select p."id", p."status",
       (select count(*) from "ledger_entries" e where e."payment_id" = p."id" and e."account" = 'seller_balance' and e."kind" = 'payment')::int as credits,
       (select count(*) from "ledger_entries" e where e."payment_id" = p."id" and e."kind" in ('payment', 'fee'))::int as entries
     from "payments" p where p."id" = any($1)`,
    [[...known.keys()]],
  );
  expect(rows).toHaveLength(known.size);
  for (const row of rows) {
    const expected = row.status === 'completed' ? { credits: 1, entries: 4 } : { credits: 0, entries: 0 };
    expect({ id: row.id, status: row.status, credits: row.credits, entries: row.entries }).toEqual({ id: row.id, status: row.status, ...expected });
  }
  expect(outcomes.completed ?? 0).toBeGreaterThan(0);
  expect(outcomes.failed ?? 0).toBeGreaterThan(0);
  expect((await request(service.url).get('/healthz')).status).toBe(200);
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(service.logs.filter((line) => Number(line.level) >= 50)).toEqual([]);
});
