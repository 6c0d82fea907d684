import { spawnSync } from 'node:child_process';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Client } from 'pg';
import request, { type Response } from 'supertest';
import { Seller, SellerStatus } from '../../../src/modules/identity/seller.entity';
import { Shop, ShopStatus } from '../../../src/modules/identity/shop.entity';
import { PROJECT_ROOT } from '../../../src/shared/project-root';
import { checkoutClient } from '../../support/checkout-client';
import { catalogueEntryFor, readErrorCatalogue } from '../../support/error-catalogue';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { testRun } from '../../support/test-env';
import { useTestService } from '../../support/test-service';

/**
 * The OpenAPI document (/api/v1/openapi.json) is valid OpenAPI 3.1, says exactly what the running service
 * answers (bodies and headers of real responses checked against its schemas with ajv's 2020-12 validator),
 * and quotes only messages of the error catalogue, under their catalogue status.
 */

type Json = Record<string, any>;

const RATE_LIMIT = 60;
const service = useTestService({ RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) });
let doc: Json;
let apiKey: string;
let seller: ReturnType<typeof sellerClient>;

beforeAll(async () => {
  apiKey = (await service.createShop({ shopName: 'Corner Bakery' })).apiKey;
  seller = sellerClient(service.url, apiKey);
  const res = await request(service.url).get('/api/v1/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});

// ---------------------------------------------------------------------------------------------------------
// Validation against the document's own schemas.

/** The document's `#/components/schemas/X` references, pointed at one schema of ajv's holding them as $defs. */
function retarget(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(retarget);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' ? value.replace('#/components/schemas/', 'openapi-schemas#/$defs/') : retarget(value)]),
  );
}

let ajv: Ajv2020;
const compiled = new Map<unknown, ValidateFunction>();

function validator(schema: unknown): ValidateFunction {
  if (!ajv) {
    ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'openapi-schemas', $defs: retarget(doc.components.schemas) as Json });
  }
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(retarget(schema) as Json)));
  return validate;
}

function deref(item: Json): Json {
  if (!item?.$ref) return item;
  return (item.$ref as string).slice(2).split('/').reduce((node: Json, key: string) => node[key], doc);
}

function schemaErrors(schema: unknown, value: unknown): string[] {
  const validate = validator(schema);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
}

/** The documented response for this status: body schema, required headers and header formats. */
function expectDocumented(res: Response, response: Json | undefined, status: number): void {
  expect(res.status).toBe(status);
  expect(response).toBeDefined();
  const documented = deref(response!);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const media = documented.content['application/json'];
  expect({ status, body: res.body, errors: schemaErrors(media.schema, res.body) }).toEqual({ status, body: res.body, errors: [] });
  for (const [name, item] of Object.entries(documented.headers ?? {})) {
    const header = deref(item as Json);
    const value = res.headers[name.toLowerCase()];
    if (header.required) expect({ header: name, present: value !== undefined }).toEqual({ header: name, present: true });
    if (value !== undefined) expect({ header: name, value, errors: schemaErrors(header.schema, value) }).toEqual({ header: name, value, errors: [] });
  }
}

function expectMatches(res: Response, pathName: string, method: 'get' | 'post', status: number): void {
  const operation = doc.paths[pathName]?.[method];
  expect(operation).toBeDefined();
  expectDocumented(res, operation.responses[String(status)], status);
}

/** Every example of a response: [where, status, example value, response]. */
function allResponseExamples(): [string, string | null, unknown, Json][] {
  const out: [string, string | null, unknown, Json][] = [];
  const visit = (where: string, status: string | null, response: Json) => {
    for (const [name, example] of Object.entries<Json>(response.content?.['application/json']?.examples ?? {})) out.push([`${where} ${name}`, status, example.value, response]);
  };
  for (const [pathName, item] of Object.entries<Json>(doc.paths)) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) visit(`${method.toUpperCase()} ${pathName} ${status}`, status, deref(response));
    }
  }
  for (const [name, response] of Object.entries<Json>(doc.components.responses)) visit(`components.responses.${name}`, null, response);
  return out;
}

// ---------------------------------------------------------------------------------------------------------

describe('the document', () => {
  test('is served without an API key, as JSON, and is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator)', () => {
    const script = `
      import { Validator } from '@seriousme/openapi-schema-validator';
      let text = '';
      for await (const chunk of process.stdin) text += chunk;
      const validator = new Validator();
      const result = await validator.validate(JSON.parse(text));
      console.log(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? null }));
    `;
    // The validator is an ES module, which Jest's CommonJS runtime cannot load: it runs in a node of its own.
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: PROJECT_ROOT, input: JSON.stringify(doc), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ valid: true, version: '3.1', errors: null });
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'https://pay.example.test/api/v1', description: 'This service' }]);
  });

  test('every schema compiles under ajv 2020-12 in strict mode, and every example matches its schema', () => {
    for (const [name, schema] of Object.entries<Json>(doc.components.schemas)) expect({ name, errors: validator(schema).errors ?? [] }).toEqual({ name, errors: [] });
    for (const [where, , value, response] of allResponseExamples()) {
      expect({ where, errors: schemaErrors(response.content['application/json'].schema, value) }).toEqual({ where, errors: [] });
    }
    const create = doc.paths['/payments'].post.requestBody.content['application/json'];
    for (const [name, example] of Object.entries<Json>(create.examples)) expect({ name, errors: schemaErrors(create.schema, example.value) }).toEqual({ name, errors: [] });
  });

  test('every documented error message is a message of src/shared/errors.ts, under its catalogue status', () => {
    const catalogue = readErrorCatalogue();
    expect(catalogue.length).toBeGreaterThan(30);
    const examples = allResponseExamples().filter(([, , value]) => (value as Json).success === false);
    expect(examples.length).toBeGreaterThanOrEqual(30);
    for (const [where, status, value, response] of examples) {
      const message = (value as Json).error as string;
      const entry = catalogueEntryFor(catalogue, message);
      expect({ where, message, inCatalogue: entry !== undefined }).toEqual({ where, message, inCatalogue: true });
      // Shared responses (components) have no status key: their description names the case.
      const documentedStatus = status ?? String(entry!.status);
      expect({ where, message, status: String(entry!.status) }).toEqual({ where, message, status: documentedStatus });
      expect(response.content['application/json'].schema).toBeDefined();
    }
    // The spec's own messages are all there.
    const documented = new Set(examples.map(([, , value]) => (value as Json).error));
    for (const message of [
      'Amount must be at least 50 cents', "Currency must be 'usd'", 'Return URL is required', 'Return URL must be a valid HTTPS URL',
      'Metadata cannot exceed 50 keys', 'Missing required field: amount', 'Invalid API key', 'API key required', 'Shop is inactive',
      'Seller account inactive', 'Payment not found', 'An unexpected error occurred',
    ]) expect(documented).toContain(message);
  });
});

describe('the reference page', () => {
  test('GET /api/v1/docs serves a page of ours, without an API key, under a CSP with no inline script or style', async () => {
    const page = await request(service.url).get('/api/v1/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = page.headers['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    // Every script and style sheet is one of ours, by path: nothing from another origin, nothing inline.
    expect(page.text).not.toMatch(/<script(?![^>]*\ssrc="\/api\/v1\/docs\/reference\.js")/);
    expect(page.text).not.toMatch(/<style|style=|https?:\/\//);
    const script = await request(service.url).get('/api/v1/docs/reference.js');
    expect([script.status, script.headers['content-type']]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(script.text).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/);
    const styles = await request(service.url).get('/api/v1/docs/reference.css');
    expect([styles.status, styles.headers['content-type']]).toEqual([200, 'text/css; charset=utf-8']);
  });

  test('other methods and paths next to them stay behind authentication', async () => {
    expect((await request(service.url).post('/api/v1/openapi.json')).status).toBe(401);
    expect((await request(service.url).get('/api/v1/docs/other.js')).status).toBe(401);
  });
});

describe('real responses match the document', () => {
  test('GET /payments/test -> 200', async () => {
    expectMatches(await seller.test(), '/payments/test', 'get', 200);
  });

  test('POST /payments -> 200, and its idempotent replay -> 200 with Idempotent-Replayed', async () => {
    const body = { ...VALID_PAYMENT, customer_email: 'ann@example.com', customer_name: 'Ann', metadata: { order_id: '42', n: 7, gift: true } };
    const first = await seller.create(body, { 'Idempotency-Key': 'openapi-create' });
    expectMatches(first, '/payments', 'post', 200);
    const replay = await seller.create(body, { 'Idempotency-Key': 'openapi-create' });
    expectMatches(replay, '/payments', 'post', 200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const minimal = await seller.create({ amount: 50.0, currency: 'usd', return_url: 'https://shop.example.com/r' });
    expectMatches(minimal, '/payments', 'post', 200);
  });

  test('GET /payments/{id} -> 200 while pending and once completed', async () => {
    const id = (await seller.create(VALID_PAYMENT)).body.data.id;
    const pending = await seller.retrieve(id);
    expectMatches(pending, '/payments/{id}', 'get', 200);
    expect(pending.body.data.completed_at).toBeNull();
    expect((await checkoutClient(service.url).pay(id, '4242424242424242')).body.data.submitCard.status).toBe('COMPLETED');
    const completed = await seller.retrieve(id);
    expectMatches(completed, '/payments/{id}', 'get', 200);
    expect(completed.body.data).toMatchObject({ status: 'completed', completed_at: expect.any(String) });
  });

  test('GET /payments -> 200 with pagination', async () => {
    const res = await seller.list('?page=1&limit=5');
    expectMatches(res, '/payments', 'get', 200);
    expect(res.body.data.length).toBeGreaterThan(0);
    expectMatches(await seller.list('?status=refunded&page=99'), '/payments', 'get', 200);
  });

  test('400: each kind of bad body and query', async () => {
    const bodies: unknown[] = [
      {},
      { ...VALID_PAYMENT, amount: 50.5 },
      { ...VALID_PAYMENT, amount: 49 },
      { ...VALID_PAYMENT, currency: 840 },
      { ...VALID_PAYMENT, currency: 'eur' },
      { ...VALID_PAYMENT, return_url: 'http://shop.example.com' },
      { ...VALID_PAYMENT, return_url: '' },
      { ...VALID_PAYMENT, customer_email: 'nope' },
      { ...VALID_PAYMENT, metadata: [] },
      { ...VALID_PAYMENT, metadata: { a: { b: 1 } } },
      [],
    ];
    for (const body of bodies) expectMatches(await seller.createRaw(JSON.stringify(body)), '/payments', 'post', 400);
    expectMatches(await seller.createRaw('{"amount": 12'), '/payments', 'post', 400);
    expectMatches(await seller.create(VALID_PAYMENT, { 'Idempotency-Key': 'k'.repeat(256) }), '/payments', 'post', 400);
    for (const query of ['?page=0', '?limit=101', '?status=PENDING', '?page=1&page=2']) expectMatches(await seller.list(query), '/payments', 'get', 400);
  });

  test('401: no key, a malformed key, an unknown key, an inactive shop', async () => {
    const url = service.url;
    expectMatches(await request(url).get('/api/v1/payments/test'), '/payments/test', 'get', 401);
    expectMatches(await request(url).get('/api/v1/payments').set('Authorization', 'Bearer svc_test_123'), '/payments', 'get', 401);
    const unknown = await request(url).get('/api/v1/payments/pay_x').set('Authorization', `Bearer svc_live_${'0'.repeat(64)}`);
    expectMatches(unknown, '/payments/{id}', 'get', 401);
    expect(unknown.headers['x-ratelimit-limit']).toBe(String(RATE_LIMIT));
    const inactive = await service.createShop();
    await service.em().nativeUpdate(Shop, { id: inactive.shop.id }, { status: ShopStatus.INACTIVE });
    const res = await sellerClient(url, inactive.apiKey).create(VALID_PAYMENT);
    expectMatches(res, '/payments', 'post', 401);
    expect(res.body.error).toBe('Shop is inactive');
  });

  test('403: an inactive seller', async () => {
    const suspended = await service.createShop();
    await service.em().nativeUpdate(Seller, { id: suspended.seller.id }, { status: SellerStatus.SUSPENDED });
    expectMatches(await sellerClient(service.url, suspended.apiKey).list(), '/payments', 'get', 403);
  });

  test('404: an unknown payment; an unknown route (components.responses.RouteNotFound)', async () => {
    expectMatches(await seller.retrieve('pay_000000000000000000000000'), '/payments/{id}', 'get', 404);
    expectMatches(await seller.retrieve('not-an-id'), '/payments/{id}', 'get', 404);
    const route = await request(service.url).get('/api/v1/refunds').set('Authorization', `Bearer ${apiKey}`);
    expectDocumented(route, doc.components.responses.RouteNotFound, 404);
  });

  test('405: a known path with another method (components.responses.MethodNotAllowed)', async () => {
    const res = await request(service.url).delete('/api/v1/payments/pay_x').set('Authorization', `Bearer ${apiKey}`);
    expectDocumented(res, doc.components.responses.MethodNotAllowed, 405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  test('413 over 64 KB; 415 not JSON', async () => {
    const huge = JSON.stringify({ ...VALID_PAYMENT, customer_name: 'x'.repeat(70 * 1024) });
    expectMatches(await seller.createRaw(huge), '/payments', 'post', 413);
    const text = await request(service.url).post('/api/v1/payments').set('Authorization', `Bearer ${apiKey}`).set('Content-Type', 'text/plain').send('amount=50');
    expectMatches(text, '/payments', 'post', 415);
  });

  test('422: the same Idempotency-Key with another body', async () => {
    expect((await seller.create(VALID_PAYMENT, { 'Idempotency-Key': 'openapi-422' })).status).toBe(200);
    const res = await seller.create({ ...VALID_PAYMENT, amount: 999, metadata: { a: '1' } }, { 'Idempotency-Key': 'openapi-422' });
    expectMatches(res, '/payments', 'post', 422);
    expect(res.body.error).toBe('Idempotency-Key was already used with different parameters: amount, metadata');
  });

  test('429: over the key\'s budget, with Retry-After', async () => {
    const burner = sellerClient(service.url, (await service.createShop()).apiKey);
    let res = await burner.test();
    for (let i = 0; i < RATE_LIMIT * 2 && res.status !== 429; i++) res = await burner.test();
    expectMatches(res, '/payments/test', 'get', 429);
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
  });

  test('409: a twin arriving while the first request with its key is unresolved', async () => {
    const res = await inFlightTwin();
    expectMatches(res, '/payments', 'post', 409);
    expect(res.headers['retry-after']).toBe('1');
  });
});

/**
 * The 409 path needs an interleaving that a single-statement insert makes rare: the twin's insert finds the
 * key taken, but the record is gone when it looks (twice). Sessions of our own take turns holding an
 * ACCESS EXCLUSIVE lock on idempotency_records, queued behind each statement of the request, and between
 * its statements hide the record (rename its key) or show it again: insert (taken) -> look (gone) ->
 * insert (taken) -> look (gone) -> 409. Each hand-over waits until the request's next statement is queued.
 */
async function inFlightTwin(): Promise<Response> {
  const key = `openapi-409-${Date.now()}`;
  expect((await seller.create(VALID_PAYMENT, { 'Idempotency-Key': key })).status).toBe(200);
  const sessions = Array.from({ length: 4 }, () => new Client({ connectionString: testRun().databaseUrl }));
  const watcher = new Client({ connectionString: testRun().databaseUrl });
  await Promise.all([...sessions, watcher].map((c) => c.connect()));
  const lock = (c: Client) => c.query('begin').then(() => c.query('lock table "idempotency_records" in access exclusive mode'));
  const setKey = (c: Client, from: string, to: string) => c.query('update "idempotency_records" set "key" = $2 where "key" = $1', [from, to]);
  const hidden = `${key}-hidden`;
  /** Until a backend other than ours waits for a lock while running a statement matching `sql`. */
  const queued = async (sql: RegExp, others: Client[]) => {
    const ours = others.map((c) => (c as unknown as { processID: number }).processID);
    for (let i = 0; i < 500; i++) {
      const { rows } = await watcher.query(`select pid, query from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`);
      if (rows.some((r) => !ours.includes(r.pid) && sql.test(r.query))) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no statement matching ${sql} queued`);
  };
  const INSERT = /insert into "idempotency_records"/;
  const SELECT = /select [\s\S]* from "idempotency_records"/;
  const [s1, s2, s3, s4] = sessions;
  try {
    await lock(s1);
    const answer = seller.create(VALID_PAYMENT, { 'Idempotency-Key': key }).then((r) => r);
    await queued(INSERT, sessions);
    const s2Locked = lock(s2);
    await queued(/lock table/, [s1, s3, s4]);
    await s1.query('commit'); // insert #1 runs: the key is taken
    await s2Locked;
    await queued(SELECT, sessions);
    const s3Locked = lock(s3);
    await queued(/lock table/, [s1, s2, s4]);
    await setKey(s2, key, hidden);
    await s2.query('commit'); // look #1 finds nothing
    await s3Locked;
    await queued(INSERT, sessions);
    const s4Locked = lock(s4);
    await queued(/lock table/, [s1, s2, s3]);
    await setKey(s3, hidden, key);
    await s3.query('commit'); // insert #2 runs: the key is taken again
    await s4Locked;
    await queued(SELECT, sessions);
    await setKey(s4, key, hidden);
    await s4.query('commit'); // look #2 finds nothing: 409
    return await answer;
  } finally {
    await Promise.all(sessions.map((c) => c.query('rollback').catch(() => undefined)));
    await watcher.query('update "idempotency_records" set "key" = $2 where "key" = $1', [hidden, key]).catch(() => undefined);
    await Promise.all([...sessions, watcher].map((c) => c.end()));
  }
}
