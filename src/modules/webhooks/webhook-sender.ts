import dns from 'node:dns';
import http from 'node:http';
import type { LookupFunction } from 'node:net';
import https from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { DomainError } from '../../shared/errors';
import { RESPONSE_EXCERPT_BYTES } from './webhook-attempt.entity';
import { isPublicAddress, parseWebhookUrl, type WebhookUrlPolicy } from './webhook-url';

/** One POST of a delivery: the stored body bytes and the attempt's headers. */
export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** What came back: an HTTP status, or an error when no answer did (time-out, connection, refused address). */
export interface WebhookAnswer {
  status: number | null;
  error: string | null;
  durationMs: number;
  responseExcerpt: string | null;
  retryAfter: string | null;
}

/** The port the delivery code sends through; the adapter below is the real one (tests use it too). */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookAnswer>;
}

export interface SenderOptions extends WebhookUrlPolicy {
  timeoutMs: number;
  /** DNS resolution (default the system's); the connected address is checked whatever it answers. */
  lookup?: LookupFunction;
}

/**
 * Node http/https. Unless private networks are allowed, the URL rule is applied again and the
 * connection goes through request-filtering-agent, which checks the address actually connected to
 * (after DNS), so a name that resolves to an internal address is refused without a byte being sent.
 * Redirects are never followed (node's client does not follow them; a 3xx is a failed attempt). One
 * deadline covers connecting, sending and reading the answer's first bytes.
 */
export function httpWebhookSender(options: SenderOptions): WebhookSender {
  const agents = options.allowPrivateNetworks
    ? { http: new http.Agent({ keepAlive: false }), https: new https.Agent({ keepAlive: false }) }
    : { http: new RequestFilteringHttpAgent({ keepAlive: false }), https: new RequestFilteringHttpsAgent({ keepAlive: false }) };

  return {
    send(request) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      let url: URL;
      try {
        url = parseWebhookUrl(request.url, options);
      } catch (error) {
        const reason = error instanceof DomainError ? error.message : 'invalid URL';
        return Promise.resolve({ status: null, error: `refused: ${reason}`, durationMs: 0, responseExcerpt: null, retryAfter: null });
      }
      const client = url.protocol === 'https:' ? https : http;
      const body = Buffer.from(request.body, 'utf8');

      return new Promise<WebhookAnswer>((resolve) => {
        let settled = false;
        const finish = (answer: Omit<WebhookAnswer, 'durationMs'>) => {
          if (settled) return;
          settled = true;
          clearTimeout(deadline);
          outgoing.destroy();
          resolve({ ...answer, durationMs: elapsed() });
        };
        const outgoing = client.request(url, {
          method: 'POST',
          agent: url.protocol === 'https:' ? agents.https : agents.http,
          lookup: options.allowPrivateNetworks ? options.lookup : publicOnlyLookup(options.lookup),
          headers: { ...request.headers, 'content-length': String(body.length) },
        });
        const deadline = setTimeout(
          () => finish({ status: null, error: `timed out after ${options.timeoutMs} ms`, responseExcerpt: null, retryAfter: null }),
          options.timeoutMs,
        );
        outgoing.on('error', (error) => finish({ status: null, error: describe(error), responseExcerpt: null, retryAfter: null }));
        outgoing.on('response', (response) => {
          const status = response.statusCode ?? null;
          const retryAfter = header(response.headers['retry-after']);
          const chunks: Buffer[] = [];
          let size = 0;
          const done = () => finish({ status, error: redirectNote(status, response.headers.location), responseExcerpt: excerpt(chunks), retryAfter });
          response.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            size += chunk.length;
            if (size >= RESPONSE_EXCERPT_BYTES) done();
          });
          response.on('end', done);
          response.on('error', done);
          response.on('close', done);
        });
        outgoing.end(body);
      });
    },
  };
}

/**
 * DNS answers filtered by our own address rule before the agent connects: request-filtering-agent only
 * refuses what ipaddr.js does not call unicast, which lets IPv4-compatible `::7f00:1` and the other ranges
 * of `isPublicAddress` through.
 */
function publicOnlyLookup(lookup: LookupFunction = dns.lookup): LookupFunction {
  const refusal = (address: string, host: string) => new Error(`DNS lookup ${address}(host:${host}) is not allowed: not a public address`);
  return (hostname, lookupOptions, callback) =>
    lookup(hostname, lookupOptions, (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => {
      if (error) return callback(error, address as string, family);
      const addresses = Array.isArray(address) ? address.map((a) => a.address) : [address];
      const refused = addresses.find((a) => !isPublicAddress(a));
      if (refused !== undefined) return callback(refusal(refused, hostname), '', 0);
      (callback as (e: null, a: string | dns.LookupAddress[], f?: number) => void)(null, address, family);
    });
}

function header(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function redirectNote(status: number | null, location: string | undefined): string | null {
  if (status === null || status < 300 || status >= 400) return null;
  return `redirect not followed${location ? ` (Location: ${location.slice(0, 200)})` : ''}`;
}

/** The answer's first bytes as text; PostgreSQL text cannot hold NUL. */
function excerpt(chunks: Buffer[]): string | null {
  if (chunks.length === 0) return null;
  return Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8').replace(/\u0000/g, '');
}

/** request-filtering-agent's refusal, or the socket error's code and message, briefly. */
function describe(error: Error & { code?: string }): string {
  const refused = /^DNS lookup (\S+?)\(.*is not allowed/.exec(error.message);
  if (refused) return `refused: ${refused[1]} is not a public address`;
  return `${error.code ? `${error.code}: ` : ''}${error.message}`.slice(0, 300);
}
