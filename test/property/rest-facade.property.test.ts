import http from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import request from 'supertest';
import { canonicalJson } from '../../src/modules/payments/idempotency';
import { readErrorCatalogue } from '../support/error-catalogue';
import {
  assertEnvelope,
  deepToken,
  headerValue,
  hostileString,
  jsonToken,
  numberToken,
  objectText,
  percentEncode,
  rawRequest,
  withinHeaderBudget,
  type RawAnswer,
  type RawRequest,
} from '../support/hostile';
import { useTestService } from '../support/test-service';

/**
 * Hostile input against the REST facade, on one running service: generated bodies, headers, ids and query
 * strings. Whatever arrives, the service answers below 500 with the JSON envelope and a catalogue message,
 * keeps answering afterwards, and nothing reaches Object.prototype. A create it accepts is stored and read
 * back exactly as it answered it. PROPERTY_RUNS multiplies the number of cases (a new seed each run, so runs add up; PROPERTY_RUNS=5 for a deep run); PROPERTY_SEED replays a run.
 */

const RUNS = Number(process.env.PROPERTY_RUNS ?? 1);
const SEED = process.env.PROPERTY_SEED === undefined ? undefined : Number(process.env.PROPERTY_SEED);
const catalogue = readErrorCatalogue();
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();

const service = useTestService({ RATE_LIMIT_PER_MINUTE: '1000000000', AUTH_FAILURES_PER_MINUTE: '1000000000', LOG_LEVEL: 'warn' });
let apiKey: string;
let otherKey: string;
const createdIds: string[] = [];
let cases = 0;
let requests = 0;
const statuses: Record<string, number> = {};
const started = Date.now();

beforeAll(async () => {
  apiKey = (await service.createShop()).apiKey;
  otherKey = (await service.createShop()).apiKey;
  for (let i = 0; i < 3; i++) {
    const res = await request(service.url).post('/api/v1/payments').set('Authorization', `Bearer ${apiKey}`).send({ amount: 1234, currency: 'usd', return_url: 'https://shop.example.com/r' });
    createdIds.push(res.body.data.id);
  }
});
afterAll(async () => {
  agent.destroy();
  // eslint-disable-next-line no-console
  console.log(`REST facade hostile input: ${cases} generated cases (${requests} requests with the read-backs) in ${((Date.now() - started) / 1000).toFixed(1)} s; statuses ${JSON.stringify(statuses)}`);
});

const send = async (req: RawRequest): Promise<RawAnswer> => {
  requests++;
  return rawRequest(service.url, agent, req);
};

// ---------------------------------------------------------------------------------------------------------
// Generators.

/** Hostile strings short enough for a header or a URL (Node refuses more than 16 KB of them in all). */
const shortHostile = hostileString.map((s) => s.slice(0, 300));

const hex = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 });

/** Mostly the shop's valid key (so the body is read), otherwise every way of getting it wrong. */
const authorization: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 14, arbitrary: fc.constant('VALID') },
  {
    weight: 6,
    arbitrary: fc.oneof(
      fc.constant(undefined),
      fc.constantFrom('', ' ', 'Bearer', 'Bearer ', 'Basic Zm9vOmJhcg==', 'Token abc', 'Bearer null', 'Bearer undefined', 'Bearer svc_live_', 'bearer\tsvc_live_'),
      fc.constantFrom('lower', 'upper', 'spaces', 'tab', 'extra', 'short', 'uppercase-hex', 'other-shop', 'double', 'prefix-only').map((v) => `VARIANT:${v}`),
      hex.map((h) => `Bearer svc_live_${h}`),
      shortHostile.map((s) => `Bearer ${s}`),
      shortHostile,
      fc.integer({ min: 1_000, max: 4_000 }).map((n) => `Bearer ${'a'.repeat(n)}`),
    ),
  },
);

function authorizationHeader(choice: string | undefined): string | undefined {
  if (choice === 'VALID') return `Bearer ${apiKey}`;
  if (choice === undefined || !choice.startsWith('VARIANT:')) return choice;
  const variant = choice.slice('VARIANT:'.length);
  return {
    lower: `bearer ${apiKey}`,
    upper: `BEARER ${apiKey}`,
    spaces: `Bearer    ${apiKey}   `,
    tab: `Bearer\t${apiKey}`,
    extra: `Bearer ${apiKey} extra`,
    short: `Bearer ${apiKey.slice(0, -1)}`,
    'uppercase-hex': `Bearer svc_live_${apiKey.slice(9).toUpperCase()}`,
    'other-shop': `Bearer ${otherKey}`,
    double: `Bearer ${apiKey}, Bearer ${otherKey}`,
    'prefix-only': `Bearer ${apiKey.slice(0, 20)}`,
  }[variant];
}

const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      undefined, '', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'Application/Json; Charset=UTF-8', 'application/json; charset=latin1',
      'application/json; charset=utf-16', 'application/json; charset=nope', 'application/json;', 'application/json, text/plain', 'application/vnd.api+json',
      'application/merge-patch+json', 'text/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '*/*', 'json',
      'application/json; boundary="', 'application/json\u00a0',
    ),
  },
  { weight: 1, arbitrary: shortHostile },
);

const contentEncoding: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 20, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'GZIP', 'gzip, gzip', 'compress', 'zstd', 'x-gzip', '') },
  { weight: 1, arbitrary: fc.constant('gzip:real') },
);

const idempotencyKey: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  {
    weight: 3,
    arbitrary: fc.oneof(
      shortHostile,
      fc.constantFrom('', ' ', 'k'.repeat(255), 'k'.repeat(256), 'é'.repeat(200), '😀'.repeat(64)),
      fc.integer({ min: 256, max: 10_240 }).map((n) => 'k'.repeat(n)),
      fc.uuid(),
    ),
  },
);

/** Optional extra headers that parsers mishandle. */
const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    'X-Request-Id': shortHostile,
    Accept: fc.oneof(fc.constantFrom('*/*', 'text/html', 'application/xml', '', 'application/json;q=0'), shortHostile),
    'X-Forwarded-For': fc.constantFrom('1.2.3.4', '::1', 'not an ip', '127.0.0.1, 10.0.0.1'),
    'X-HTTP-Method-Override': fc.constantFrom('DELETE', 'PUT', 'GET'),
    'Accept-Charset': fc.constantFrom('latin1', 'utf-16', '*'),
  },
  { requiredKeys: [] },
);

const validUrl = fc.constantFrom('https://shop.example.com/thanks', 'https://shop.example.com/r?order=42&x=%20', 'https://例え.jp/戻る', 'https://[2001:db8::1]/r', 'https://xn--e1afmkfd.xn--p1ai/');
const hostileUrl = fc.oneof(
  validUrl,
  fc.constantFrom(
    'http://shop.example.com', 'javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'https://user:pw@shop.example.com/', 'https://@x.example',
    'https://', 'https:///path', '//shop.example.com', 'https://shop.example.com/\u0000', 'https://shop.example.com/\u202e/moc.live', 'https://shop .example.com',
    'HTTPS://SHOP.EXAMPLE.COM', 'https://127.0.0.1/', 'https://x.example/' + 'a'.repeat(2030), 'https://x.example/' + 'a'.repeat(2031), 'https://x.example/\ud800',
    ' https://x.example', 'https://x.example\n', 'https://x.example/?q=\u0000', 'https:\\\\x.example', 'file:///etc/passwd',
  ),
  hostileString.map((s) => `https://x.example/${s}`),
  hostileString,
);

const validMetadata = fc.dictionary(fc.string({ minLength: 1, maxLength: 40 }), fc.oneof(fc.string({ maxLength: 50 }), fc.integer(), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true })), { maxKeys: 8 });

/** Metadata as text: valid, near the limits, past them, nested, with prototype keys, not an object at all. */
const metadataToken: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: validMetadata.map((m) => JSON.stringify(m)) },
  { weight: 3, arbitrary: fc.array(fc.tuple(fc.oneof(fc.constantFrom('"__proto__"', '"constructor"', '"prototype"', '""', `"${'k'.repeat(40)}"`, `"${'k'.repeat(41)}"`, '"😀"'), hostileString.map((s) => JSON.stringify(s))), jsonToken(1)), { maxLength: 6 }).map(objectText) },
  { weight: 1, arbitrary: fc.integer({ min: 49, max: 52 }).map((n) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])))) },
  { weight: 1, arbitrary: fc.integer({ min: 5_000, max: 5_200 }).map((n) => JSON.stringify({ big: 'x'.repeat(n) })) },
  { weight: 1, arbitrary: fc.constantFrom('{"__proto__":{"polluted":"yes"}}', '{"constructor":{"prototype":{"polluted":"yes"}}}', '{"__proto__":"x","constructor":"y","prototype":1}', '{"a":1,"a":{"b":2}}', '{"a":{"b":2},"a":1}', '[]', '"{}"', '42', 'true', '{"a":null}', '{"a":[1]}', '{"a":1e400}') },
  { weight: 1, arbitrary: deepToken },
  { weight: 1, arbitrary: jsonToken(2) },
);

const fieldTokens: Record<string, fc.Arbitrary<string>> = {
  amount: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 50, max: 1_000_000 }).map(String) }, { weight: 3, arbitrary: numberToken }, { weight: 1, arbitrary: jsonToken(1) }),
  currency: fc.oneof({ weight: 4, arbitrary: fc.constant('"usd"') }, { weight: 2, arbitrary: hostileString.map((s) => JSON.stringify(s)) }, { weight: 1, arbitrary: jsonToken(1) }),
  return_url: fc.oneof({ weight: 3, arbitrary: validUrl.map((s) => JSON.stringify(s)) }, { weight: 3, arbitrary: hostileUrl.map((s) => JSON.stringify(s)) }, { weight: 1, arbitrary: jsonToken(1) }),
  customer_email: fc.oneof(fc.constantFrom('"ann@example.com"', '"a@b.co"', 'null'), hostileString.map((s) => JSON.stringify(s)), hostileString.map((s) => JSON.stringify(`${s}@example.com`)), jsonToken(1)),
  customer_name: fc.oneof(fc.constantFrom('"Ann Lee"', '"  "', 'null', `"${'n'.repeat(200)}"`, `"${'😀'.repeat(200)}"`, `"${'n'.repeat(201)}"`), hostileString.map((s) => JSON.stringify(s)), jsonToken(1)),
  metadata: metadataToken,
};

/** A create body: each field absent, valid or hostile; prototype keys and duplicates mixed in. */
const paymentBody: fc.Arbitrary<string> = fc
  .tuple(
    fc.record(
      Object.fromEntries(Object.entries(fieldTokens).map(([name, token]) => [name, fc.option(token, { nil: undefined, freq: 6 })])) as Record<string, fc.Arbitrary<string | undefined>>,
    ),
    fc.array(fc.tuple(fc.constantFrom('"__proto__"', '"constructor"', '"prototype"', '"amount"', '"currency"', '"metadata"', '"status"', '"id"'), jsonToken(1)), { maxLength: 2 }),
    fc.boolean(),
  )
  .map(([fields, extra, extraFirst]) => {
    const entries: [string, string][] = Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined).map(([k, v]) => [JSON.stringify(k), v]);
    return objectText(extraFirst ? [...extra, ...entries] : [...entries, ...extra]);
  });

/** Values the service accepts, chosen to be awkward to store and echo: unicode, prototype keys, extreme numbers. */
const awkwardValid: Record<string, fc.Arbitrary<string | undefined>> = {
  amount: fc.oneof(fc.integer({ min: 50, max: Number.MAX_SAFE_INTEGER }).map(String), fc.constantFrom('50', '50.00', '5e1', '0.5e2', '9007199254740991', '1E3')),
  currency: fc.constant('"usd"'),
  return_url: fc.oneof(validUrl, shortHostile.map((s) => `https://x.example/${percentEncode(s)}`), fc.string({ unit: 'grapheme', maxLength: 30 }).map((s) => `https://x.example/${s}`)).map((s) => JSON.stringify(s)),
  customer_email: fc.option(fc.oneof(fc.emailAddress(), fc.constantFrom('ü@例え.jp', 'a+b@x.example', '"q"@x.example')).map((s) => JSON.stringify(s)), { nil: undefined }),
  customer_name: fc.option(fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }), fc.constantFrom('Ann‮Lee', 'مرحبا', '😀'.repeat(200), '<b>Ann</b>')).map((s) => JSON.stringify(s)), { nil: undefined }),
  metadata: fc.option(
    fc
      .array(
        fc.tuple(
          fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }), fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '0', '1', 'k'.repeat(40))).map((k) => JSON.stringify(k)),
          fc.oneof(fc.string({ unit: 'grapheme', maxLength: 30 }).map((v) => JSON.stringify(v)), numberToken.filter((t) => Number.isFinite(Number(t)) && /^-?\d/.test(t) && !/^-?0\d/.test(t)), fc.constantFrom('true', 'false')),
        ),
        { maxLength: 10 },
      )
      .map(objectText),
    { nil: undefined },
  ),
};

/** A valid body with at most two of its fields replaced by hostile ones. */
const nearValidBody: fc.Arbitrary<string> = fc
  .tuple(fc.record(awkwardValid), fc.array(fc.constantFrom(...Object.keys(fieldTokens)), { maxLength: 2 }).chain((names) => fc.tuple(...names.map((name) => fieldTokens[name].map((token) => [name, token] as const)))))
  .map(([fields, hostile]) => {
    const merged: Record<string, string | undefined> = { ...fields };
    for (const [name, token] of hostile) merged[name] = token;
    return objectText(Object.entries(merged).filter((e): e is [string, string] => e[1] !== undefined).map(([k, v]) => [JSON.stringify(k), v]));
  });

/** Any body at all: mostly near-valid payments, then any JSON, deep nesting, giant strings, raw bytes. */
const anyBody: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 8, arbitrary: nearValidBody.map((text) => Buffer.from(text)) },
  { weight: 6, arbitrary: paymentBody.map((text) => Buffer.from(text)) },
  { weight: 2, arbitrary: jsonToken(3).map((text) => Buffer.from(text)) },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? 'null')) },
  { weight: 1, arbitrary: deepToken.map((text) => Buffer.from(text)) },
  { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 70_000 }).map((n) => Buffer.from(JSON.stringify({ amount: 100, currency: 'usd', return_url: 'https://x.example', customer_name: 'x'.repeat(n) }))) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', 'null', '{}', '[]', '{"amount":50,"currency":"usd","return_url":"https://x.example"', '\ufeff{}', '{"amount":50}garbage').map((t) => Buffer.from(t)) },
);

const paymentId: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('EXISTING', 'pay_', 'pay_000000000000000000000000', 'test', 'TEST', '%zz', '%', '%E0%A4%A', '%00', 'pay_x%00', '..', '%2e%2e', '%2F', 'pay_%F0%9F%98%80', '%ED%A0%80', '%C0%AF', '__proto__', 'constructor'),
  fc.string({ unit: fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'), minLength: 24, maxLength: 24 }).map((s) => `pay_${s}`),
  shortHostile.map(percentEncode),
  fc.integer({ min: 100, max: 5_000 }).map((n) => 'a'.repeat(n)),
);

const queryValue = fc.oneof(
  fc.constantFrom('1', '0', '-1', '100', '101', '1.0', '1e2', '0x10', ' 1', '+1', '１', '', '%00', '%zz', '%', 'null', 'NaN', '999999999', '9999999999', 'pending', 'PENDING', 'completed', 'refunded', 'failed', 'processing'),
  hostileString.map((s) => percentEncode(s.slice(0, 60))),
  fc.integer().map(String),
);
const queryString: fc.Arbitrary<string> = fc.oneof(
  fc.array(fc.tuple(fc.constantFrom('page', 'limit', 'status', 'page[]', 'page[a]', 'limit[0]', '__proto__', 'constructor', '__proto__[polluted]', 'status[]', 'PAGE', ''), queryValue), { maxLength: 5 }).map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&')),
  fc.constantFrom('page=1&page=2', 'limit=1&limit=100', 'status=pending&status=failed', '&&&', '=1', 'page', 'page==1', '%', 'page=1;limit=2', '?', 'page=1#frag'),
);

const otherRequest: fc.Arbitrary<{ method: string; path: string }> = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE'),
  path: fc.oneof(
    fc.constantFrom('/api/v1/payments', '/api/v1/payments/', '/api/v1/payments/test', '/api/v1/payments/test/', '/api/v1/payments/x/y', '/api/v1', '/api/v1/', '/api/V1/payments', '/api/v1//payments', '/api/v1/./payments', '/api/v1/payments/../payments', '/api/v2/payments', '/api/v1/refunds', '/nope', '/%zz', '/api/v1/%zz', '/api/v1/payments/%zz/x'),
    shortHostile.map((s) => `/api/v1/${percentEncode(s)}`),
    shortHostile.map((s) => `/zz-${percentEncode(s)}`),
  ),
});

interface Case {
  kind: 'create' | 'list' | 'retrieve' | 'test' | 'other';
  req: RawRequest;
  /** The Authorization header was the shop's own, well-formed key. */
  validKey: boolean;
}

const hostileCase: fc.Arbitrary<Case> = fc
  .tuple(
    fc.oneof(
      { weight: 12, arbitrary: fc.record({ kind: fc.constant('create' as const), body: anyBody, contentType, contentEncoding, idempotencyKey }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('list' as const), query: queryString }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('retrieve' as const), id: paymentId }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('test' as const) }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('other' as const), other: otherRequest, body: fc.option(anyBody, { nil: undefined }), contentType }) },
    ),
    authorization,
    extraHeaders,
  )
  .map(([spec, auth, extra]) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(extra)) headers[name] = headerValue(value);
    const authHeader = authorizationHeader(auth);
    if (authHeader !== undefined) headers.Authorization = headerValue(authHeader);
    const validKey = auth === 'VALID';
    switch (spec.kind) {
      case 'create': {
        let body = spec.body;
        if (spec.contentType !== undefined) headers['Content-Type'] = headerValue(spec.contentType);
        if (spec.contentEncoding === 'gzip:real') {
          headers['Content-Encoding'] = 'gzip';
          body = gzipSync(body);
        } else if (spec.contentEncoding !== undefined) headers['Content-Encoding'] = spec.contentEncoding;
        if (spec.idempotencyKey !== undefined) headers['Idempotency-Key'] = headerValue(spec.idempotencyKey);
        return { kind: 'create', validKey, req: { method: 'POST', path: '/api/v1/payments', headers, body } };
      }
      case 'list':
        return { kind: 'list', validKey, req: { method: 'GET', path: `/api/v1/payments?${spec.query}`, headers } };
      case 'retrieve':
        return { kind: 'retrieve', validKey, req: { method: 'GET', path: `/api/v1/payments/${spec.id}`, headers } };
      case 'test':
        return { kind: 'test', validKey, req: { method: 'GET', path: '/api/v1/payments/test', headers } };
      default: {
        if (spec.contentType !== undefined) headers['Content-Type'] = headerValue(spec.contentType);
        return { kind: 'other', validKey, req: { method: spec.other.method, path: spec.other.path, headers, body: spec.other.method === 'GET' || spec.other.method === 'HEAD' ? undefined : spec.body } };
      }
    }
  });

// ---------------------------------------------------------------------------------------------------------
// The property.

/** What JSON.parse makes of the body we sent: the same parser the service uses. */
function parsedBody(body: Buffer | undefined): Record<string, unknown> {
  return JSON.parse((body ?? Buffer.alloc(0)).toString('utf8'));
}

async function checkAcceptedCreate(c: Case, answer: Record<string, unknown>): Promise<void> {
  const sent = parsedBody(c.req.headers['Content-Encoding'] === 'gzip' ? gunzipSync(c.req.body!) : c.req.body);
  const data = answer.data as Record<string, unknown>;
  expect(data.status).toBe('pending');
  expect(data.amount).toBe(sent.amount);
  expect(data.currency).toBe('usd');
  expect([data.customer_email, data.customer_name]).toEqual([sent.customer_email ?? null, sent.customer_name ?? null]);
  // Keys in the order sent, except that a replay of an Idempotency-Key shows the first request's order.
  const same = c.req.headers['Idempotency-Key'] === undefined ? JSON.stringify : canonicalJson;
  expect(same(data.metadata)).toBe(same(sent.metadata ?? {}));
  // Stored as answered: the payment read back is the one created, byte for byte.
  const stored = await send({ method: 'GET', path: `/api/v1/payments/${data.id}`, headers: { Authorization: c.req.headers.Authorization } });
  expect(stored.status).toBe(200);
  const { completed_at: completedAt, ...readBack } = JSON.parse(stored.text).data;
  expect(completedAt).toBeNull();
  expect(JSON.stringify(readBack)).toBe(JSON.stringify(data));
}

test('hostile requests to the REST facade: never a 5xx, always the envelope with a catalogue message', async () => {
  await fc.assert(
    fc.asyncProperty(hostileCase, async (c) => {
      if (c.req.path.includes('EXISTING')) c.req.path = c.req.path.replace('EXISTING', createdIds[cases % createdIds.length]);
      cases++;
      const res = await send(withinHeaderBudget(c.req));
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      const body = assertEnvelope(c.req, res, catalogue);
      if (c.validKey && c.kind !== 'other') {
        expect([res.headers['x-ratelimit-limit'], typeof res.headers['x-ratelimit-remaining'], typeof res.headers['x-ratelimit-reset']]).toEqual(['1000000000', 'string', 'string']);
      }
      if (c.kind === 'create' && res.status === 200 && body) await checkAcceptedCreate(c, body);
      if (c.kind === 'list' && res.status === 200 && body) {
        expect(Array.isArray(body.data)).toBe(true);
        expect(body.pagination).toEqual({ page: expect.any(Number), limit: expect.any(Number), total: expect.any(Number), pages: expect.any(Number) });
      }
    }),
    { numRuns: 1_500 * RUNS, seed: SEED, endOnFailure: false, interruptAfterTimeLimit: 240_000 * RUNS },
  );
}, 300_000 * RUNS);

test('afterwards the process still answers, nothing was logged as unexpected, and Object.prototype is untouched', async () => {
  const health = await request(service.url).get('/healthz');
  expect(health.status).toBe(200);
  const after = await request(service.url).post('/api/v1/payments').set('Authorization', `Bearer ${apiKey}`).send({ amount: 50, currency: 'usd', return_url: 'https://shop.example.com/r' });
  expect(after.status).toBe(200);
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  const unexpected = service.logs.filter((line) => Number(line.level) >= 50);
  expect(unexpected).toEqual([]);
});
