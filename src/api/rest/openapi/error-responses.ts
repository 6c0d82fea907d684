import { domainError, type DomainError, type ErrorCode } from '../../../shared/errors';
import { HEADERS, type HeaderName } from './headers-and-parameters';
import { ref, type Header, type JsonSchema, type Reference, type ResponseObject } from './types';

/*
 * Error answers as the document shows them: every case is a catalogue entry (src/shared/errors.ts), with its
 * status and message taken from the catalogue, never retyped.
 */

type DetailsOf<C extends ErrorCode> = Parameters<typeof domainError<C>> extends [C, ...infer D] ? D : never;

/** domainError over details TypeScript cannot relate to the code through a generic. */
const anyDomainError = domainError as (code: ErrorCode, ...details: unknown[]) => DomainError;

/** One documented error: its catalogue code, status and message (with sample details), and when it happens. */
export interface ErrorCase {
  code: ErrorCode;
  status: number;
  message: string;
  summary: string;
  /** For a templated message: the details it can take, as patterns (by default, the details of its cases). */
  detailPatterns?: string[];
}

export function errorCase<C extends ErrorCode>(summary: string, code: C, ...details: DetailsOf<C>): ErrorCase {
  const error = anyDomainError(code, ...details);
  return { code, status: error.status, message: error.message, summary };
}

/** A case whose templated message takes details beyond its sample: `[0-9]+` seconds, any list of fields. */
export function anyDetails(documented: ErrorCase, ...detailPatterns: string[]): ErrorCase {
  return { ...documented, detailPatterns };
}

/** The errors a route answers under one status, and the extra headers they carry. */
export interface ErrorGroup {
  description: string;
  cases: ErrorCase[];
  headers?: HeaderName[];
  /** Whether the rate-limit headers are sure: not when the refusal came before the key was counted. */
  rateLimit?: RateLimitHeaders;
}

type RateLimitHeaders = 'required' | 'optional';

const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/** The headers of an answer: its request id, the rate-limit headers, and its own. */
export function headersFor(rateLimit: RateLimitHeaders, extra: HeaderName[] = []): Record<string, Header | Reference> {
  const rateLimitHeader = (name: HeaderName): Header | Reference =>
    rateLimit === 'required'
      ? ref('headers', name)
      : { ...HEADERS[name], required: false, description: `${HEADERS[name].description} Present when the API key was well-formed and so counted against its budget.` };
  const names: HeaderName[] = ['X-Request-Id', ...RATE_LIMIT_HEADERS, ...extra];
  return Object.fromEntries(names.map((name) => [name, RATE_LIMIT_HEADERS.some((r) => r === name) ? rateLimitHeader(name) : ref('headers', name)]));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const DETAIL = (index: number) => `\u0000${index}\u0000`;

/** The catalogue message with its details as patterns, or undefined when the message takes none. */
function messagePattern(code: ErrorCode, cases: ErrorCase[]): string | undefined {
  const template = anyDomainError(code, DETAIL(0), DETAIL(1), DETAIL(2)).message;
  if (!template.includes(DETAIL(0))) return undefined;
  const ofCode = cases.filter((c) => c.code === code);
  const samples = ofCode.map((c) => c.message);
  const patterns = ofCode.find((c) => c.detailPatterns)?.detailPatterns ?? [samples.map((m) => escapeRegExp(detailOf(template, m))).join('|')];
  return `^${escapeRegExp(template).replace(/\u0000(\d)\u0000/g, (_, i: string) => `(${patterns[Number(i)]})`)}$`;
}

/** The one detail of a single-detail message (the text where the template has DETAIL(0)). */
function detailOf(template: string, message: string): string {
  const [before, after] = template.split(DETAIL(0));
  return message.slice(before.length, message.length - after.length);
}

/** The `error` strings a response may carry: the fixed messages as an enum, templated ones as patterns. */
function messageSchema(cases: ErrorCase[]): JsonSchema {
  const codes = [...new Set(cases.map((c) => c.code))];
  const patterns = new Map(codes.map((code) => [code, messagePattern(code, cases)]));
  const fixed = [...new Set(cases.filter((c) => patterns.get(c.code) === undefined).map((c) => c.message))];
  const templated = [...new Set(patterns.values())].filter((p): p is string => p !== undefined);
  const choices: JsonSchema[] = [...(fixed.length ? [{ enum: fixed }] : []), ...templated.map((pattern) => ({ pattern }))];
  return { type: 'string', ...(choices.length === 1 ? choices[0] : { anyOf: choices }) };
}

/** The response of one status: the envelope with `success: false` and one of the listed messages. */
export function errorResponse(group: ErrorGroup): ResponseObject {
  const { cases } = group;
  const statuses = new Set(cases.map((c) => c.status));
  if (statuses.size !== 1) throw new Error(`one response, one status: ${[...statuses].join(', ')}`);
  const exampleName = (c: ErrorCase, index: number) => (cases.filter((other) => other.code === c.code).length > 1 ? `${c.code}_${index + 1}` : c.code);
  return {
    description: group.description,
    headers: headersFor(group.rateLimit ?? 'required', group.headers),
    content: {
      'application/json': {
        schema: { allOf: [ref('schemas', 'Error'), { type: 'object', properties: { error: messageSchema(cases) } }] },
        examples: Object.fromEntries(cases.map((c, i) => [exampleName(c, i), { summary: c.summary, value: { success: false, error: c.message } }])),
      },
    },
  };
}

/** Error groups keyed by their status, one response each; a route's own group and a common one of the same status make one. */
export function errorResponses(groups: ErrorGroup[]): Record<string, ResponseObject> {
  const byStatus = new Map<string, ErrorGroup>();
  for (const group of groups) {
    const status = String(group.cases[0].status);
    const seen = byStatus.get(status);
    byStatus.set(status, seen ? mergedGroups(seen, group) : group);
  }
  return Object.fromEntries([...byStatus].map(([status, group]) => [status, errorResponse(group)]));
}

function mergedGroups(first: ErrorGroup, second: ErrorGroup): ErrorGroup {
  const headers = [...new Set([...(first.headers ?? []), ...(second.headers ?? [])])];
  const rateLimit = first.rateLimit === 'optional' || second.rateLimit === 'optional' ? 'optional' : undefined;
  return { description: `${first.description} ${second.description}`, cases: [...first.cases, ...second.cases], ...(headers.length ? { headers } : {}), ...(rateLimit ? { rateLimit } : {}) };
}

/** The answers every authenticated route can give. */
export const COMMON_ERRORS: ErrorGroup[] = [
  {
    description: 'Authentication failed. The rate-limit headers are present only when the key was well-formed (and so counted).',
    cases: [
      errorCase('No `Authorization` header (or an empty one).', 'API_KEY_REQUIRED'),
      errorCase('A key that is malformed (not `Bearer svc_live_` + 64 lowercase hex), unknown, revoked, or of a deleted shop.', 'INVALID_API_KEY'),
      errorCase('The shop was deactivated by an administrator.', 'SHOP_INACTIVE'),
    ],
    rateLimit: 'optional',
  },
  { description: 'The seller account is inactive.', cases: [errorCase('The seller account is inactive or suspended.', 'SELLER_INACTIVE')] },
  {
    description: 'Too many requests. The rate-limit headers are absent when the refusal is for failed authentications.',
    cases: [anyDetails(errorCase('More than the key\'s budget in this window, or more than 30 failed authentications per minute from this address.', 'RATE_LIMITED', 42), '[0-9]+')],
    rateLimit: 'optional',
    headers: ['Retry-After'],
  },
  { description: 'Unexpected server fault.', cases: [errorCase('A fault on our side; logged with the request id. Never a stack trace.', 'INTERNAL')], rateLimit: 'optional' },
  {
    description: 'Temporarily unavailable.',
    cases: [errorCase('The database is unreachable or restarting. Retry after `Retry-After` seconds.', 'UNAVAILABLE')],
    rateLimit: 'optional',
    headers: ['Retry-After'],
  },
];

/** Answers outside the route table (rest-router.ts): components/responses. */
export const OUTSIDE_ROUTES = {
  RouteNotFound: errorResponse({
    description: 'No such route: any path not listed here (under `/api/v1` after authentication).',
    cases: [errorCase('An unknown path.', 'ROUTE_NOT_FOUND')],
    rateLimit: 'optional',
  }),
  MethodNotAllowed: errorResponse({
    description: 'A listed path with a method it does not support.',
    cases: [errorCase('`DELETE /payments/{id}`, `PUT /payments`, …', 'METHOD_NOT_ALLOWED')],
    headers: ['Allow'],
  }),
};
