import http, { type IncomingHttpHeaders } from 'node:http';
import zlib from 'node:zlib';
import { COMPRESSION_THRESHOLD_BYTES } from '../../../src/api/rest/compressed-answers';
import { checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

/**
 * Compressed answers (docs/decisions/0024-compressed-answers.md): the OpenAPI document and the reference page in gzip
 * or Brotli for a client that asks, decoding to the very bytes others get; REST answers under the threshold, and every
 * answer to a client that does not ask, exactly as before; the event stream never compressed and still sent message by
 * message; nothing outside /api/v1 compressed per request.
 */
const service = useTestService({ RATE_LIMIT_PER_MINUTE: '10000', GRAPHQL_MAX_ALIASES: '1000' });

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as they came over the wire. */
  raw: Buffer;
  /** The bytes once decoded by their Content-Encoding. */
  body: Buffer;
}

/** One request with exactly the headers given (no client default adds an Accept-Encoding). */
function send(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${service.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = raw.length > 0 ? res.headers['content-encoding'] : undefined;
        try {
          const body = encoding === 'gzip' ? zlib.gunzipSync(raw) : encoding === 'br' ? zlib.brotliDecompressSync(raw) : encoding === 'deflate' ? zlib.inflateSync(raw) : raw;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, body });
        } catch (error) {
          reject(error);
        }
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** What may differ between two answers to the same request: when, which request, how much budget is left. */
const VOLATILE = new Set(['date', 'x-request-id', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'connection', 'keep-alive']);
const stable = (headers: IncomingHttpHeaders) => Object.fromEntries(Object.entries(headers).filter(([name]) => !VOLATILE.has(name)));

let apiKey: string;
let auth: Record<string, string>;
beforeAll(async () => {
  apiKey = (await service.createShop()).apiKey;
  auth = { authorization: `Bearer ${apiKey}` };
});

describe('the OpenAPI document and the reference page', () => {
  test('openapi.json with Accept-Encoding: gzip is gzip, and decodes to the bytes a client that does not ask gets', async () => {
    const plain = await send('GET', '/api/v1/openapi.json');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(plain.headers['content-length'])).toBe(plain.raw.length);
    // As it always was: the document, indented by two.
    expect(plain.raw.toString('utf8')).toBe(JSON.stringify(JSON.parse(plain.raw.toString('utf8')), null, 2));
    expect(plain.headers.vary).toBe('Accept-Encoding');

    const gzip = await send('GET', '/api/v1/openapi.json', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toBe('Accept-Encoding');
    expect(Number(gzip.headers['content-length'])).toBe(gzip.raw.length);
    expect(gzip.body.equals(plain.raw)).toBe(true);
    expect(gzip.raw.length).toBeLessThan(plain.raw.length / 5);
    expect(stable({ ...gzip.headers, 'content-encoding': undefined, 'content-length': undefined })).toEqual(stable({ ...plain.headers, 'content-length': undefined }));
  });

  test('Brotli when the client takes it (browsers do); identity when it refuses both', async () => {
    const plain = await send('GET', '/api/v1/openapi.json');
    const br = await send('GET', '/api/v1/openapi.json', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.equals(plain.raw)).toBe(true);
    const refused = await send('GET', '/api/v1/openapi.json', { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.raw.equals(plain.raw)).toBe(true);
    const head = await send('HEAD', '/api/v1/openapi.json', { 'accept-encoding': 'gzip' });
    expect([head.status, head.headers['content-encoding'], head.raw.length]).toEqual([200, 'gzip', 0]);
  });

  test('the page, its script and its style sheet: compressed with their CSP kept, the same bytes decoded', async () => {
    for (const path of ['/api/v1/docs', '/api/v1/docs/reference.js', '/api/v1/docs/reference.css']) {
      const plain = await send('GET', path);
      const gzip = await send('GET', path, { 'accept-encoding': 'gzip' });
      expect([path, gzip.status, gzip.headers['content-encoding'], gzip.body.equals(plain.raw)]).toEqual([path, 200, 'gzip', true]);
      expect(gzip.headers['content-security-policy']).toBe(plain.headers['content-security-policy']);
      expect(gzip.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });
});

describe('REST answers', () => {
  test('under the threshold: the same bytes and headers whether the client asks for compression or not', async () => {
    const seller = sellerClient(service.url, apiKey);
    const id = (await seller.create(VALID_PAYMENT)).body.data.id as string;
    const requests: [string, string, Record<string, string>, string?][] = [
      ['GET', `/api/v1/payments/${id}`, auth],
      ['GET', '/api/v1/payments/test', auth],
      ['GET', '/api/v1/payments?limit=1', auth],
      ['GET', '/api/v1/payments/pay_nope', auth],
      ['GET', '/api/v1/payments', {}],
      ['GET', '/api/v1/nope', auth],
      ['POST', '/api/v1/payments', { ...auth, 'content-type': 'application/json', 'idempotency-key': 'same-either-way' }, JSON.stringify(VALID_PAYMENT)],
    ];
    for (const [method, path, headers, body] of requests) {
      const plain = await send(method, path, headers, body);
      const asked = await send(method, path, { ...headers, 'accept-encoding': 'gzip, deflate, br' }, body);
      expect(asked.raw.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
      expect({ path, status: asked.status, body: asked.raw.toString() }).toEqual({ path, status: plain.status, body: plain.raw.toString() });
      // The create's second answer is the replay of the first: it says so, and is otherwise the same.
      expect({ path, headers: stable({ ...asked.headers, 'idempotent-replayed': undefined }) }).toEqual({ path, headers: stable(plain.headers) });
      expect([path, asked.headers.vary, asked.headers['content-encoding']]).toEqual([path, undefined, undefined]);
    }
  });

  test('a page of payments over the threshold: compressed for a client that asks, decoding to the same bytes; as before for one that does not', async () => {
    const shop = await service.createShop();
    const seller = sellerClient(service.url, shop.apiKey);
    for (let i = 0; i < 5; i++) await seller.create({ ...VALID_PAYMENT, metadata: { order_id: String(i) } });
    const headers = { authorization: `Bearer ${shop.apiKey}` };
    const plain = await send('GET', '/api/v1/payments?limit=5', headers);
    expect(plain.raw.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    expect([plain.headers['content-encoding'], plain.headers.vary, Number(plain.headers['content-length'])]).toEqual([undefined, undefined, plain.raw.length]);
    expect(JSON.parse(plain.raw.toString()).data).toHaveLength(5);

    for (const [accept, encoding] of [['gzip', 'gzip'], ['gzip, deflate, br', 'br'], ['deflate', 'deflate']]) {
      const asked = await send('GET', '/api/v1/payments?limit=5', { ...headers, 'accept-encoding': accept });
      expect([accept, asked.status, asked.headers['content-encoding'], asked.headers.vary]).toEqual([accept, 200, encoding, 'Accept-Encoding']);
      expect([accept, asked.body.toString()]).toEqual([accept, plain.raw.toString()]);
      expect(asked.raw.length).toBeLessThan(plain.raw.length);
      expect(asked.headers['cache-control']).toBe('no-store');
    }
  });
});

describe('the event stream', () => {
  test('asked with every encoding, it is not compressed and each event still comes at once, the stream left open', async () => {
    const shop = await service.createShop();
    const received: string[] = [];
    let closed = false;
    const req = http.get(
      `${service.url}/api/v1/events/stream`,
      { headers: { authorization: `Bearer ${shop.apiKey}`, accept: 'text/event-stream', 'accept-encoding': 'gzip, deflate, br' } },
    );
    try {
      const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
        req.on('response', resolve);
        req.on('error', reject);
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => received.push(chunk));
      res.on('close', () => (closed = true));
      expect([res.statusCode, res.headers['content-type'], res.headers['content-encoding']]).toEqual([200, 'text/event-stream; charset=utf-8', undefined]);
      const until = async (pattern: RegExp, timeoutMs: number) => {
        const deadline = Date.now() + timeoutMs;
        while (!pattern.test(received.join(''))) {
          if (Date.now() > deadline) throw new Error(`not seen in ${timeoutMs} ms: ${pattern}\n${received.join('')}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      await until(/event: ready\n/, 5000);

      const id = (await sellerClient(service.url, shop.apiKey).create(VALID_PAYMENT)).body.data.id as string;
      expect((await checkoutClient(service.url).pay(id, '4242 4242 4242 4242')).body.errors).toBeUndefined();
      const paidAt = Date.now();
      // Written once the stream's next run finds it (runs are a second apart): a compressor would have held it back.
      await until(/event: payment\.completed\n/, 5000);
      expect(Date.now() - paidAt).toBeLessThan(4000);
      expect(received.join('')).toContain(id);
      expect(closed).toBe(false);
    } finally {
      req.destroy();
    }
  });
});

test('HEAD of the stream: the same headers whether the client asks for compression or not', async () => {
  const plain = await send('HEAD', '/api/v1/events/stream', auth);
  const asked = await send('HEAD', '/api/v1/events/stream', { ...auth, 'accept-encoding': 'gzip, br' });
  expect(plain.status).toBe(200);
  expect(stable(asked.headers)).toEqual(stable(plain.headers));
});

describe('outside /api/v1', () => {
  test('/graphql answers, which carry secrets shown once beside the caller\'s own input, are never compressed', async () => {
    const query = `{ ${Array.from({ length: 200 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    const body = JSON.stringify({ query });
    const asked = await send('POST', '/graphql', { ...auth, 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate, br' }, body);
    expect(asked.status).toBe(200);
    expect(asked.raw.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    expect([asked.headers['content-encoding'], asked.headers.vary ?? '']).toEqual([undefined, expect.not.stringContaining('Accept-Encoding')]);
    expect(JSON.parse(asked.raw.toString()).data.a199).toBe('Query');
  });
});
