import http from 'node:http';
import fc from 'fast-check';
import { catalogueEntryFor, type CatalogueEntry } from './error-catalogue';

/** Generators of hostile input and a raw HTTP client for the property tests (test/property/). */

/** Strings that break naive code: control characters, lone surrogates, direction overrides, injections. */
export const SPECIAL_STRINGS = [
  '', ' ', '\t', '\n', '\r\n', '\u0000', 'a\u0000b', '\ud800', '\udfff', 'a\ud83d', '\ude00b', '😀', '👩‍👩‍👧‍👦', '𝕏', '\ufeff', '\u200b',
  'a\u202eb', '\u202e\u202d', '\u200f', 'مرحبا بالعالم', 'שלום', 'ＵＳＤ', 'uѕd', 'null', 'undefined', 'NaN', 'Infinity', '-0', '1e308',
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '<script>alert(1)</script>', "'; drop table payments; --",
  '${7*7}', '{{7*7}}', '%00', '%zz', '\\u0000', '../../etc/passwd', 'usd', 'USD', ' usd', 'usd ', 'usd\u0000',
];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

/** Any string: arbitrary code points and code units, special strings spliced in, now and then very long. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 2, arbitrary: fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 8 }), loneSurrogate, fc.constantFrom(...SPECIAL_STRINGS)), { maxLength: 6 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('x', 'é', '😀', '\u202e'), fc.integer({ min: 100, max: 70_000 })).map(([unit, n]) => unit.repeat(n)) },
);

/** JSON number tokens, including ones JSON.parse reads as -0, Infinity or an unsafe integer, and invalid ones. */
export const numberToken: fc.Arbitrary<string> = fc.oneof(
  fc.integer().map(String),
  fc.integer({ min: 50, max: 10_000_000 }).map(String),
  fc.double().map((d) => JSON.stringify(d)),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
  fc.constantFrom('-0', '0', '50', '50.00', '50.5', '49', '49.999999999999999', '1e308', '1e309', '-1e309', '9007199254740991', '9007199254740992',
    '9007199254740993', '1E2', '5e1', '0.5e2', '1e-7', '00050', '-50', '+50', '.5', '5.', '0x32', 'NaN', 'Infinity', '-Infinity', '1_000'),
);

/** A JSON value as text, possibly invalid; objects may repeat keys. */
export function jsonToken(depth = 2): fc.Arbitrary<string> {
  const leaf = fc.oneof(
    { weight: 3, arbitrary: numberToken },
    { weight: 4, arbitrary: hostileString.map((s) => JSON.stringify(s)) },
    { weight: 1, arbitrary: fc.constantFrom('true', 'false', 'null', '[]', '{}', '""', '"\u0000"', '"\\ud800"', '"\\u0000"', "'single'", 'undefined', '', '{', ']') },
  );
  if (depth <= 0) return leaf;
  const inner = jsonToken(depth - 1);
  return fc.oneof(
    { weight: 6, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(inner, { maxLength: 4 }).map((items) => `[${items.join(',')}]`) },
    { weight: 1, arbitrary: fc.array(fc.tuple(keyToken, inner), { maxLength: 4 }).map((entries) => objectText(entries)) },
  );
}

/** Keys for objects: the payment's own, prototype keys, and anything. */
export const keyToken: fc.Arbitrary<string> = fc
  .oneof(
    fc.constantFrom('amount', 'currency', 'return_url', 'customer_email', 'customer_name', 'metadata', '__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', ''),
    hostileString,
  )
  .map((key) => JSON.stringify(key));

export function objectText(entries: [string, string][]): string {
  return `{${entries.map(([key, value]) => `${key}:${value}`).join(',')}}`;
}

/** Nesting far beyond anything sensible, in arrays or objects, up to past the 64 KB body limit. */
export const deepToken: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 1, max: 40_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.integer({ min: 1, max: 14_000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)),
  fc.integer({ min: 1, max: 5_000 }).map((n) => '{"__proto__":'.repeat(n) + '{}' + '}'.repeat(n)),
);

/** Bytes as a latin1 string, which is how Node's HTTP client puts them on the wire (UTF-8 text arrives as its bytes). */
export function headerValue(text: string): string {
  // Node refuses control characters other than tab in header values; they cannot be sent at all.
  return Buffer.from(text, 'utf8').toString('latin1').replace(/[^\t\x20-\x7e\x80-\xff]/g, '');
}

/** Percent-encodes every byte of the UTF-8 form that is not unreserved (lone surrogates become EF BF BD). */
export function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/**
 * Node's HTTP parser answers a request line plus headers over 16 KB itself (a bare 431, before Express), so
 * generated requests stay under that: optional headers are dropped, largest first, until they fit.
 */
export const HEADER_BUDGET_BYTES = 15_000;
const OPTIONAL_HEADERS = ['X-Request-Id', 'Accept', 'X-Forwarded-For', 'X-HTTP-Method-Override', 'Accept-Charset', 'Content-Type'];

export function withinHeaderBudget(req: RawRequest): RawRequest {
  const size = () => req.path.length + Object.entries(req.headers).reduce((sum, [name, value]) => sum + name.length + value.length + 4, 0);
  const optional = OPTIONAL_HEADERS.filter((name) => name in req.headers).sort((a, b) => req.headers[b].length - req.headers[a].length);
  while (size() > HEADER_BUDGET_BYTES && optional.length > 0) delete req.headers[optional.shift()!];
  if (size() > HEADER_BUDGET_BYTES) throw new Error(`generated request over the header budget: ${req.method} ${req.path.slice(0, 100)}`);
  return req;
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One request exactly as given (no client-side JSON, no header normalisation), on a keep-alive connection. */
export function rawRequest(baseUrl: string, agent: http.Agent, req: RawRequest): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        // A request line is ASCII: other bytes are percent-encoded, as any client does (Node's parser answers raw
        // ones itself with a bare 400, before the application).
        path: [...Buffer.from(req.path, 'utf8')].map((b) => (b > 0x20 && b < 0x7f ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join(''),
        // Node sends no length for a GET, DELETE or OPTIONS body: the bytes would read as a second, broken request.
        headers: req.body === undefined ? req.headers : { ...req.headers, 'Content-Length': String(req.body.length) },
        agent,
        timeout: 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer in 30 s: ${req.method} ${req.path.slice(0, 100)}`)));
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

/** A stack frame, a source path or an exception name: internals that must never reach a caller. */
const INTERNALS = /\bat [^\s]+ \(|\.[jt]s:\d+|node_modules|\/src\/|\b(Type|Reference|Syntax|Range)Error\b|stack|ECONN|SQL|postgres|relation "/i;

/**
 * The facade's promises about any answer: never a 5xx; JSON with the envelope; an error is one of the
 * catalogue's messages under the catalogue's status, with nothing else in the body. Throws with the
 * request and answer when one is broken.
 */
export function assertEnvelope(req: RawRequest, res: RawAnswer, catalogue: CatalogueEntry[]): Record<string, unknown> | null {
  const fail = (why: string): never => {
    throw new Error(`${why}\n  request: ${req.method} ${req.path.slice(0, 300)} ${JSON.stringify(req.headers).slice(0, 500)} body ${String(req.body ?? '').slice(0, 500)}\n  answer: ${res.status} ${JSON.stringify(res.headers).slice(0, 300)} ${res.text.slice(0, 500)}`);
  };
  if (res.status >= 500 || res.status < 200) fail(`status ${res.status}`);
  if (!res.headers['x-request-id']) fail('no X-Request-Id');
  if (req.method === 'HEAD') return null;
  if (!/^application\/json\b/.test(String(res.headers['content-type']))) fail('not JSON');
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(res.text);
  } catch {
    return fail('body is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) fail('body is not an object');
  if (typeof body.success !== 'boolean') fail('no boolean success');
  if (body.success) {
    if (!('data' in body)) fail('success without data');
    if (res.status !== 200) fail('success with a status other than 200');
    return body;
  }
  if (typeof body.error !== 'string') fail('failure without an error string');
  if (Object.keys(body).sort().join() !== 'error,success') fail('failure with other fields');
  const entry = catalogueEntryFor(catalogue, body.error as string) ?? fail('message not in the catalogue');
  if (entry.status !== res.status) fail(`catalogue status ${entry.status}, answered ${res.status}`);
  if (INTERNALS.test(body.error as string)) fail('internals in the message');
  return body;
}
