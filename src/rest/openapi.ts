import { IDEMPOTENCY_WINDOW_MS } from '../payments/idempotency';
import { EMAIL_MAX_LENGTH } from '../shared/email';
import { PAYMENT_STATUSES } from '../payments/payment-status';
import { domainError, type DomainError, type ErrorCode } from '../shared/errors';
import { IDEMPOTENCY_KEY_MAX_LENGTH, CUSTOMER_NAME_MAX_LENGTH, METADATA_KEY_MAX_LENGTH, METADATA_MAX_BYTES, METADATA_MAX_KEYS, MINIMUM_AMOUNT_CENTS, RETURN_URL_MAX_LENGTH, SUPPORTED_CURRENCY, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '../shared/limits';

/*
 * The OpenAPI 3.1 description of the REST facade (README, "The REST API"), served at /api/v1/openapi.json
 * and rendered at /api/v1/docs. Limits come from the rules' own constants and every error message from the
 * catalogue (src/shared/errors.ts), so the document says what the code does; test/integration/openapi.test.ts
 * checks real answers against it.
 */

// ---------------------------------------------------------------------------------------------------------
// Types: the part of OpenAPI 3.1 (and of JSON Schema 2020-12, its schema language) this document uses.

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

export interface JsonSchema {
  $ref?: string;
  title?: string;
  description?: string;
  type?: JsonType | JsonType[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  default?: unknown;
  examples?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  maxProperties?: number;
  items?: JsonSchema;
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
}

export interface Reference {
  $ref: string;
}

export interface Example {
  summary?: string;
  value: unknown;
}

export interface MediaType {
  schema: JsonSchema;
  examples?: Record<string, Example>;
}

export interface Header {
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  description: string;
  required?: boolean;
  schema: JsonSchema;
  examples?: Record<string, Example>;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, Header | Reference>;
  content?: Record<string, MediaType>;
}

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security?: Record<string, string[]>[];
  parameters?: (Parameter | Reference)[];
  requestBody?: { description?: string; required: boolean; content: Record<string, MediaType> };
  responses: Record<string, ResponseObject | Reference>;
}

export type PathItem = Partial<Record<'get' | 'post', Operation>> & { summary?: string; description?: string };

export interface SecurityScheme {
  type: 'http';
  scheme: 'bearer';
  bearerFormat: string;
  description: string;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  jsonSchemaDialect: string;
  info: { title: string; version: string; summary: string; description: string };
  servers: { url: string; description: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, ResponseObject>;
    parameters: Record<string, Parameter>;
    headers: Record<string, Header>;
    securitySchemes: Record<string, SecurityScheme>;
  };
}

// ---------------------------------------------------------------------------------------------------------
// Errors: each documented answer is a catalogue entry, with its status and message taken from the catalogue.

type DetailsOf<C extends ErrorCode> = Parameters<typeof domainError<C>> extends [C, ...infer D] ? D : never;

/** One documented error: its catalogue code, sample details for a templated message, and when it happens. */
export interface ErrorCase {
  code: ErrorCode;
  status: number;
  message: string;
  summary: string;
}

function errorCase<C extends ErrorCode>(summary: string, code: C, ...details: DetailsOf<C>): ErrorCase {
  // DetailsOf<C> is domainError's own parameter list; TypeScript cannot see that through the generic.
  const error = (domainError as (code: C, ...details: unknown[]) => DomainError)(code, ...details);
  return { code, status: error.status, message: error.message, summary };
}

/** Templated messages: the shapes their details take, so a schema can check a message it has not seen. */
const CREATE_FIELDS = ['amount', 'currency', 'return_url', 'customer_email', 'customer_name', 'metadata'];
const MESSAGE_PATTERNS: Partial<Record<ErrorCode, string>> = {
  MISSING_FIELD: '^Missing required field: (amount|currency)$',
  FIELD_NOT_STRING: '^Field (currency|return_url|customer_email|customer_name) must be a string$',
  IDEMPOTENCY_KEY_REUSED: `^Idempotency-Key was already used with different parameters: (${CREATE_FIELDS.join('|')})(, (${CREATE_FIELDS.join('|')}))*$`,
  RATE_LIMITED: '^Rate limit exceeded\\. Try again in [0-9]+ seconds\\.$',
};

/** The `error` strings a response may carry: the fixed messages as an enum, templated ones as patterns. */
function messageSchema(cases: ErrorCase[]): JsonSchema {
  const fixed = [...new Set(cases.filter((c) => !MESSAGE_PATTERNS[c.code]).map((c) => c.message))];
  const patterns = [...new Set(cases.map((c) => MESSAGE_PATTERNS[c.code]).filter((p): p is string => p !== undefined))];
  const choices: JsonSchema[] = [...(fixed.length ? [{ enum: fixed }] : []), ...patterns.map((pattern) => ({ pattern }))];
  return { type: 'string', ...(choices.length === 1 ? choices[0] : { anyOf: choices }) };
}

/** Which rate-limit headers an answer carries: all of them once the key was counted (see the 401 and 429 notes). */
type RateLimitHeaders = 'required' | 'optional';

const ref = (kind: 'schemas' | 'responses' | 'parameters' | 'headers', name: string): Reference => ({ $ref: `#/components/${kind}/${name}` });

function headersFor(rateLimit: RateLimitHeaders, extra: Record<string, Header | Reference> = {}): Record<string, Header | Reference> {
  const rateLimitHeaders: Record<string, Header | Reference> =
    rateLimit === 'required'
      ? { 'X-RateLimit-Limit': ref('headers', 'X-RateLimit-Limit'), 'X-RateLimit-Remaining': ref('headers', 'X-RateLimit-Remaining'), 'X-RateLimit-Reset': ref('headers', 'X-RateLimit-Reset') }
      : {
          'X-RateLimit-Limit': optional(HEADERS['X-RateLimit-Limit']),
          'X-RateLimit-Remaining': optional(HEADERS['X-RateLimit-Remaining']),
          'X-RateLimit-Reset': optional(HEADERS['X-RateLimit-Reset']),
        };
  return { 'X-Request-Id': ref('headers', 'X-Request-Id'), ...rateLimitHeaders, ...extra };
}

function optional(header: Header): Header {
  return {
    ...header,
    required: false,
    description: `${header.description} Present when the API key was well-formed and so counted against its budget.`,
  };
}

/** The response of one status: the envelope with `success: false` and one of the listed messages. */
function errorResponse(description: string, cases: ErrorCase[], rateLimit: RateLimitHeaders = 'required', extraHeaders: Record<string, Header | Reference> = {}): ResponseObject {
  const statuses = new Set(cases.map((c) => c.status));
  if (statuses.size !== 1) throw new Error(`one response, one status: ${[...statuses].join(', ')}`);
  return {
    description,
    headers: headersFor(rateLimit, extraHeaders),
    content: {
      'application/json': {
        schema: { allOf: [ref('schemas', 'Error'), { type: 'object', properties: { error: messageSchema(cases) } }] },
        examples: Object.fromEntries(cases.map((c, i) => [exampleName(c, i, cases), { summary: c.summary, value: { success: false, error: c.message } }])),
      },
    },
  };
}

function exampleName(c: ErrorCase, index: number, all: ErrorCase[]): string {
  return all.filter((other) => other.code === c.code).length > 1 ? `${c.code}_${index + 1}` : c.code;
}

/** Groups a route's error cases by status, one response each. */
function errorResponses(groups: { description: string; cases: ErrorCase[]; rateLimit?: RateLimitHeaders; headers?: Record<string, Header | Reference> }[]): Record<string, ResponseObject> {
  return Object.fromEntries(groups.map((g) => [String(g.cases[0].status), errorResponse(g.description, g.cases, g.rateLimit, g.headers)]));
}

// ---------------------------------------------------------------------------------------------------------
// Shared pieces.

const RETRY_AFTER: Reference = ref('headers', 'Retry-After');

const HEADERS: Record<string, Header> = {
  'X-Request-Id': {
    description:
      'The request\'s id, also on its log line: the caller\'s own `X-Request-Id` when it is 1-64 characters of `[A-Za-z0-9._-]`, otherwise `req_` and 20 random characters. Quote it to support.',
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$' },
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed per API key per one-minute window (spec: 100).',
    required: true,
    schema: { type: 'string', pattern: '^[0-9]+$', examples: ['100'] },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window, this one counted.',
    required: true,
    schema: { type: 'string', pattern: '^[0-9]+$', examples: ['99'] },
  },
  'X-RateLimit-Reset': {
    description: 'When the current window ends and the budget is full again: a Unix time in **seconds**.',
    required: true,
    schema: { type: 'string', pattern: '^[0-9]{10,}$', examples: ['1795428120'] },
  },
  'Retry-After': {
    description: 'Whole seconds to wait before trying again.',
    required: true,
    schema: { type: 'string', pattern: '^[0-9]+$', examples: ['42'] },
  },
  'Idempotent-Replayed': {
    description:
      '`true` when this is the stored first answer to the same `Idempotency-Key` and body: nothing was created by this request.',
    required: false,
    schema: { type: 'string', const: 'true' },
  },
  Allow: {
    description: 'The methods the path supports.',
    required: true,
    schema: { type: 'string', examples: ['GET, HEAD, POST'] },
  },
};

const PAYMENT_ID_PATTERN = '^pay_[0-9A-Za-z]{24}$';
const ISO_UTC_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$';
const MAX_SAFE_INTEGER = Number.MAX_SAFE_INTEGER;
const METADATA_KB = METADATA_MAX_BYTES / 1024;

const METADATA_VALUE: JsonSchema = {
  type: ['string', 'number', 'boolean'],
  description: 'A string, a finite number or a boolean. Nested objects, arrays and null are refused.',
};

const PAYMENT_PROPERTIES: Record<string, JsonSchema> = {
  id: { type: 'string', pattern: PAYMENT_ID_PATTERN, description: '`pay_` and 24 characters of `[0-9A-Za-z]` from a CSPRNG (about 143 bits).', examples: ['pay_3kTMd2mXq8uV0aRbWc5pLs7e'] },
  amount: { type: 'integer', minimum: MINIMUM_AMOUNT_CENTS, maximum: MAX_SAFE_INTEGER, description: 'Integer cents of USD.', examples: [1234] },
  currency: { type: 'string', const: SUPPORTED_CURRENCY },
  status: { type: 'string', enum: [...PAYMENT_STATUSES], description: '`pending` at creation; `completed` or `failed` after checkout; `refunded` after an administrator refund.' },
  checkout_url: { type: 'string', format: 'uri', pattern: '/checkout/pay_[0-9A-Za-z]{24}$', description: '`{base_url}/checkout/<id>`: send the customer here.', examples: ['https://pay.example.com/checkout/pay_3kTMd2mXq8uV0aRbWc5pLs7e'] },
  customer_email: { type: ['string', 'null'], description: 'As sent; null when not sent.' },
  customer_name: { type: ['string', 'null'], description: 'As sent; null when not sent.' },
  metadata: { type: 'object', additionalProperties: METADATA_VALUE, description: 'As sent, keys in the order sent; `{}` when not sent.' },
  created_at: { type: 'string', format: 'date-time', pattern: ISO_UTC_PATTERN, description: 'ISO 8601, UTC, with `Z`.', examples: ['2026-11-23T10:00:00.000Z'] },
};

const CREATED_FIELDS = Object.keys(PAYMENT_PROPERTIES);

// ---------------------------------------------------------------------------------------------------------
// Error cases per route.

const AUTH_401: ErrorCase[] = [
  errorCase('No `Authorization` header (or an empty one).', 'API_KEY_REQUIRED'),
  errorCase('A key that is malformed (not `Bearer svc_live_` + 64 lowercase hex), unknown, revoked, or of a deleted shop.', 'INVALID_API_KEY'),
  errorCase('The shop was deactivated by an administrator.', 'SHOP_INACTIVE'),
];
const AUTH_403: ErrorCase[] = [errorCase('The seller account is inactive or suspended.', 'SELLER_INACTIVE')];
const RATE_429: ErrorCase[] = [errorCase('More than the key\'s budget in this window, or more than 30 failed authentications per minute from this address.', 'RATE_LIMITED', 42)];
const INTERNAL_500: ErrorCase[] = [errorCase('A fault on our side; logged with the request id. Never a stack trace.', 'INTERNAL')];
const UNAVAILABLE_503: ErrorCase[] = [errorCase('The database is unreachable or restarting. Retry after `Retry-After` seconds.', 'UNAVAILABLE')];

const CREATE_400: ErrorCase[] = [
  errorCase('The body is not valid JSON, or a gzip, deflate or br `Content-Encoding` that does not decode.', 'INVALID_JSON'),
  errorCase('The body is JSON but not an object (`[]`, `42`, `"x"`, `null`).', 'BODY_NOT_OBJECT'),
  errorCase('`amount` absent or null.', 'MISSING_FIELD', 'amount'),
  errorCase('`amount` with a fraction (`50.5`), a string, a boolean, or beyond 2^53.', 'AMOUNT_INVALID'),
  errorCase(`\`amount\` below ${MINIMUM_AMOUNT_CENTS}.`, 'AMOUNT_TOO_SMALL'),
  errorCase('`currency` absent or null.', 'MISSING_FIELD', 'currency'),
  errorCase('A string field sent as another JSON type (`currency: 840`).', 'FIELD_NOT_STRING', 'currency'),
  errorCase(`\`currency\` other than \`${SUPPORTED_CURRENCY}\`.`, 'CURRENCY_INVALID'),
  errorCase('`return_url` absent, null or empty.', 'RETURN_URL_REQUIRED'),
  errorCase(`\`return_url\` longer than ${RETURN_URL_MAX_LENGTH} characters.`, 'RETURN_URL_TOO_LONG'),
  errorCase('`return_url` not an absolute `https://` URL with a host, or with `user:password@`, whitespace, U+0000 or a lone surrogate.', 'RETURN_URL_INVALID'),
  errorCase(`\`customer_email\` not an address, over ${EMAIL_MAX_LENGTH} characters, or with U+0000 or a lone surrogate.`, 'CUSTOMER_EMAIL_INVALID'),
  errorCase(`\`customer_name\` blank, over ${CUSTOMER_NAME_MAX_LENGTH} characters, or with U+0000 or a lone surrogate.`, 'CUSTOMER_NAME_INVALID'),
  errorCase('`metadata` not an object (an array, a string, a number).', 'METADATA_NOT_OBJECT'),
  errorCase(`More than ${METADATA_MAX_KEYS} metadata keys.`, 'METADATA_TOO_MANY_KEYS'),
  errorCase(`A metadata key empty or over ${METADATA_KEY_MAX_LENGTH} characters.`, 'METADATA_KEY_INVALID'),
  errorCase('A metadata value nested, null, or not a finite number.', 'METADATA_VALUE_INVALID'),
  errorCase(`Metadata over ${METADATA_KB} KB (UTF-8 bytes of its JSON text).`, 'METADATA_TOO_LARGE'),
  errorCase(`An \`Idempotency-Key\` of more than ${IDEMPOTENCY_KEY_MAX_LENGTH} characters.`, 'IDEMPOTENCY_KEY_INVALID'),
];

const LIST_400: ErrorCase[] = [
  errorCase('`page` not a positive integer (also when given twice).', 'PAGE_INVALID'),
  errorCase(`\`limit\` not an integer from 1 to ${PAGE_LIMIT_MAX}.`, 'LIMIT_INVALID'),
  errorCase('`status` not one of the four payment statuses (lowercase).', 'STATUS_FILTER_INVALID', PAYMENT_STATUSES.join(', ')),
];

/** The answers every authenticated route can give. */
function commonErrors(): Record<string, ResponseObject> {
  return errorResponses([
    {
      description: 'Authentication failed. The rate-limit headers are present only when the key was well-formed (and so counted).',
      cases: AUTH_401,
      rateLimit: 'optional',
    },
    { description: 'The seller account is inactive.', cases: AUTH_403 },
    {
      description: 'Too many requests. The rate-limit headers are absent when the refusal is for failed authentications.',
      cases: RATE_429,
      rateLimit: 'optional',
      headers: { 'Retry-After': RETRY_AFTER },
    },
    { description: 'Unexpected server fault.', cases: INTERNAL_500, rateLimit: 'optional' },
    { description: 'Temporarily unavailable.', cases: UNAVAILABLE_503, rateLimit: 'optional', headers: { 'Retry-After': RETRY_AFTER } },
  ]);
}

function success(description: string, schemaName: string, example: unknown, extraHeaders: Record<string, Header | Reference> = {}): ResponseObject {
  return {
    description,
    headers: headersFor('required', extraHeaders),
    content: { 'application/json': { schema: ref('schemas', schemaName), examples: { example: { summary: 'Example', value: example } } } },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Examples.

const EXAMPLE_PAYMENT = {
  id: 'pay_3kTMd2mXq8uV0aRbWc5pLs7e',
  amount: 1234,
  currency: 'usd',
  status: 'pending',
  checkout_url: 'https://pay.example.com/checkout/pay_3kTMd2mXq8uV0aRbWc5pLs7e',
  customer_email: 'ann@example.com',
  customer_name: null,
  metadata: { order_id: '42' },
  created_at: '2026-11-23T10:00:00.000Z',
};
const EXAMPLE_COMPLETED = { ...EXAMPLE_PAYMENT, status: 'completed', completed_at: '2026-11-23T10:01:02.345Z' };

// ---------------------------------------------------------------------------------------------------------
// The document.

const DESCRIPTION = `Sellers create card payments, send the customer to the payment's \`checkout_url\` (a hosted page that collects the card and handles 3-D Secure), and verify the outcome by retrieving the payment or from the \`payment.completed\` webhook. Amounts are integer cents of USD; a fee of 15% is deducted when the seller balance is credited. Live mode only: every payment is a real charge (use the 50-cent minimum to test).

**Authentication.** Every request under \`/api/v1\` except this document and its reference page carries \`Authorization: Bearer svc_live_<64 lowercase hex>\` (the scheme word in any case). Authentication runs before the body is read, so a bad body without a key is 401, not 400.

**Rate limit.** 100 requests per minute per API key (the spec's figure; operators may set another with \`RATE_LIMIT_PER_MINUTE\`), a fixed one-minute window shared by all instances. Every authenticated answer, errors included, carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (Unix seconds). Over the limit: 429 with \`Retry-After\`. Failed authentications are limited separately per client address.

**Idempotency.** \`Idempotency-Key\` (1-${IDEMPOTENCY_KEY_MAX_LENGTH} characters) on create, scoped per shop and kept ${IDEMPOTENCY_WINDOW_MS / 3_600_000} hours. The same key and body answer the first answer again, byte for byte, with \`Idempotent-Replayed: true\`; a different body is 422; a request arriving while the first is still running is 409 with \`Retry-After: 1\`. A request that fails validation is not remembered.

**Envelope.** Every answer is JSON: \`{"success": true, "data": …}\` (plus \`pagination\` on lists) or \`{"success": false, "error": "<message>"}\`. The messages listed under each status are the only ones the service sends; clients may retry 429 and 5xx with back-off.

**Outside the routes below.** An unknown path under \`/api/v1\` (after authentication) or elsewhere is 404 \`Route not found\` (components/responses/RouteNotFound); a known path with another method is 405 \`Method not allowed\` with an \`Allow\` header (components/responses/MethodNotAllowed). API answers carry \`Cache-Control: no-store\`.`;

export function openApiDocument(baseUrl: string): OpenApiDocument {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'Hosted-checkout payments API',
      version: '1.0.0',
      summary: 'Create card payments paid on a hosted checkout page, and read them back.',
      description: DESCRIPTION,
    },
    servers: [{ url: `${baseUrl}/api/v1`, description: 'This service' }],
    security: [{ apiKey: [] }],
    tags: [
      { name: 'Payments', description: 'Create, retrieve and list the calling shop\'s payments.' },
      { name: 'Authentication', description: 'Check that an API key works.' },
      { name: 'Reference', description: 'This document.' },
    ],
    paths: {
      '/payments/test': {
        get: {
          operationId: 'testApiKey',
          summary: 'Check an API key',
          description: 'Answers 200 with the key\'s shop when the key works; the same 401/403/429 as every route when it does not.',
          tags: ['Authentication'],
          parameters: [ref('parameters', 'X-Request-Id')],
          responses: { '200': success('The key works.', 'ApiKeyTestResponse', { success: true, data: { authenticated: true, mode: 'live', shop: { id: 'shop_8aTzQe1LmN0pR5sV', shop_name: 'Corner Bakery' } } }), ...commonErrors() },
        },
      },
      '/payments': {
        post: {
          operationId: 'createPayment',
          summary: 'Create a payment',
          description:
            'Creates a `pending` payment and answers its `checkout_url`. Fields are checked in the order listed and the first problem is reported. Unknown fields are ignored.',
          tags: ['Payments'],
          parameters: [ref('parameters', 'Idempotency-Key'), ref('parameters', 'X-Request-Id')],
          requestBody: {
            description: 'A JSON object of at most 64 KB (after decompression: `Content-Encoding` gzip, deflate and br are read). `Content-Type` must be `application/json` (a `charset` other than `utf-8`, `utf-16` or `utf-32` is 415).',
            required: true,
            content: {
              'application/json': {
                schema: ref('schemas', 'CreatePaymentRequest'),
                examples: {
                  minimal: { summary: 'Required fields only', value: { amount: 50, currency: 'usd', return_url: 'https://shop.example.com/thanks' } },
                  full: {
                    summary: 'Every field',
                    value: { amount: 1234, currency: 'usd', return_url: 'https://shop.example.com/thanks', customer_email: 'ann@example.com', customer_name: 'Ann Lee', metadata: { order_id: '42', gift: true } },
                  },
                },
              },
            },
          },
          responses: {
            '200': success('The payment was created (or, with `Idempotent-Replayed: true`, the first answer to this key is repeated).', 'PaymentCreatedResponse', { success: true, data: EXAMPLE_PAYMENT }, { 'Idempotent-Replayed': ref('headers', 'Idempotent-Replayed') }),
            ...errorResponses([
              { description: 'The body or a field breaks a rule.', cases: CREATE_400 },
              {
                description: 'A request with the same `Idempotency-Key` is still running.',
                cases: [errorCase('The first request with this key has not answered yet.', 'IDEMPOTENCY_KEY_IN_FLIGHT')],
                headers: { 'Retry-After': RETRY_AFTER },
              },
              { description: 'The body is larger than 64 KB.', cases: [errorCase('Body over 64 KB.', 'BODY_TOO_LARGE')] },
              { description: 'The body is not declared as JSON.', cases: [errorCase('`Content-Type` other than `application/json`, or a charset that is not `utf-*`.', 'UNSUPPORTED_MEDIA_TYPE'), errorCase('A `Content-Encoding` other than gzip, deflate, br or identity.', 'UNSUPPORTED_CONTENT_ENCODING')] },
              {
                description: 'The `Idempotency-Key` was already used with a different body; the message names the fields that differ.',
                cases: [errorCase('Same key, different amount and metadata.', 'IDEMPOTENCY_KEY_REUSED', 'amount, metadata')],
              },
            ]),
            ...commonErrors(),
          },
        },
        get: {
          operationId: 'listPayments',
          summary: 'List payments',
          description: 'The calling shop\'s payments, newest first, each as the retrieve payload. A page past the end is an empty list.',
          tags: ['Payments'],
          parameters: [ref('parameters', 'page'), ref('parameters', 'limit'), ref('parameters', 'status'), ref('parameters', 'X-Request-Id')],
          responses: {
            '200': success('One page of payments.', 'PaymentListResponse', { success: true, data: [EXAMPLE_COMPLETED], pagination: { page: 1, limit: 10, total: 1, pages: 1 } }),
            ...errorResponses([{ description: 'A query parameter is not valid.', cases: LIST_400 }]),
            ...commonErrors(),
          },
        },
      },
      '/payments/{id}': {
        get: {
          operationId: 'retrievePayment',
          summary: 'Retrieve a payment',
          description: 'The payment with `completed_at`. Only the calling shop\'s payments are found.',
          tags: ['Payments'],
          parameters: [ref('parameters', 'id'), ref('parameters', 'X-Request-Id')],
          responses: {
            '200': success('The payment.', 'PaymentResponse', { success: true, data: EXAMPLE_COMPLETED }),
            ...errorResponses([
              { description: 'No such payment for this shop.', cases: [errorCase('A wrong or malformed id (even one that is not valid percent-encoding), another shop\'s payment, or a deleted one.', 'PAYMENT_NOT_FOUND')] },
            ]),
            ...commonErrors(),
          },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'openApiDocument',
          summary: 'This document',
          description: 'Public: no API key. A readable rendering is at `/api/v1/docs`.',
          tags: ['Reference'],
          security: [],
          responses: {
            '200': {
              description: 'The OpenAPI 3.1 document.',
              headers: { 'X-Request-Id': ref('headers', 'X-Request-Id') },
              content: { 'application/json': { schema: { type: 'object', required: ['openapi', 'info', 'paths'] } } },
            },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'svc_live_<64 lowercase hex>',
          description: 'The shop\'s API key, shown once when the shop is created. Keep it server-side.',
        },
      },
      parameters: {
        id: {
          name: 'id',
          in: 'path',
          required: true,
          description: 'The payment id. Anything not of this form is simply 404 `Payment not found`.',
          schema: { type: 'string', pattern: PAYMENT_ID_PATTERN },
        },
        page: {
          name: 'page',
          in: 'query',
          description: 'Page number, from 1. Digits only (at most 9).',
          schema: { type: 'integer', minimum: 1, maximum: 999_999_999, default: 1 },
        },
        limit: {
          name: 'limit',
          in: 'query',
          description: `Payments per page, 1 to ${PAGE_LIMIT_MAX}.`,
          schema: { type: 'integer', minimum: 1, maximum: PAGE_LIMIT_MAX, default: PAGE_LIMIT_DEFAULT },
        },
        status: {
          name: 'status',
          in: 'query',
          description: 'Only payments in this status.',
          schema: { type: 'string', enum: [...PAYMENT_STATUSES] },
        },
        'Idempotency-Key': {
          name: 'Idempotency-Key',
          in: 'header',
          description: `Makes the create safe to retry: the same key (per shop, ${IDEMPOTENCY_WINDOW_MS / 3_600_000} hours) and body answer the first answer again and create nothing.`,
          schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
          examples: { order: { value: 'order-42' } },
        },
        'X-Request-Id': {
          name: 'X-Request-Id',
          in: 'header',
          description: 'Your own id for the request, echoed back and logged (ignored unless 1-64 characters of `[A-Za-z0-9._-]`).',
          schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$' },
        },
      },
      headers: HEADERS,
      schemas: {
        CreatePaymentRequest: {
          type: 'object',
          required: ['amount', 'currency', 'return_url'],
          properties: {
            amount: {
              type: 'integer',
              minimum: MINIMUM_AMOUNT_CENTS,
              maximum: MAX_SAFE_INTEGER,
              description: `Cents of USD, at least ${MINIMUM_AMOUNT_CENTS}. A JSON number with a zero fraction (\`50.00\`) is that integer; any other fraction, a string or a boolean is refused.`,
              examples: [1234],
            },
            currency: { type: 'string', const: SUPPORTED_CURRENCY, description: 'Only `usd` (lowercase).' },
            return_url: {
              type: 'string',
              format: 'uri',
              minLength: 1,
              maxLength: RETURN_URL_MAX_LENGTH,
              pattern: '^https://[^\\s]+$',
              description: `Where the customer goes after checkout (with \`payment_id\` and \`status\` added). An absolute \`https://\` URL with a host, no \`user:password@\`, no whitespace, U+0000 or lone surrogate, at most ${RETURN_URL_MAX_LENGTH} characters.`,
              examples: ['https://shop.example.com/thanks'],
            },
            customer_email: {
              type: ['string', 'null'],
              format: 'email',
              maxLength: EMAIL_MAX_LENGTH,
              description: `For receipts. \`local@domain.tld\`, at most ${EMAIL_MAX_LENGTH} characters, no U+0000 or lone surrogate. Null is the same as absent.`,
            },
            customer_name: {
              type: ['string', 'null'],
              minLength: 1,
              maxLength: CUSTOMER_NAME_MAX_LENGTH,
              pattern: '\\S',
              description: `For receipts. 1 to ${CUSTOMER_NAME_MAX_LENGTH} characters (code points), not blank, no U+0000 or lone surrogate. Null is the same as absent.`,
            },
            metadata: {
              type: ['object', 'null'],
              maxProperties: METADATA_MAX_KEYS,
              propertyNames: { minLength: 1, maxLength: METADATA_KEY_MAX_LENGTH },
              additionalProperties: METADATA_VALUE,
              description: `Your own data, echoed back and in the webhook: at most ${METADATA_MAX_KEYS} keys of 1-${METADATA_KEY_MAX_LENGTH} characters (UTF-16 code units), flat values, at most ${METADATA_KB} KB as UTF-8 JSON text. Null is the same as absent.`,
              examples: [{ order_id: '42' }],
            },
          },
        },
        Payment: {
          title: 'Payment (create payload)',
          type: 'object',
          required: CREATED_FIELDS,
          additionalProperties: false,
          properties: PAYMENT_PROPERTIES,
        },
        PaymentWithCompletion: {
          title: 'Payment (retrieve payload)',
          type: 'object',
          required: [...CREATED_FIELDS, 'completed_at'],
          additionalProperties: false,
          properties: {
            ...PAYMENT_PROPERTIES,
            completed_at: {
              type: ['string', 'null'],
              format: 'date-time',
              pattern: ISO_UTC_PATTERN,
              description: 'When the payment completed (ISO 8601, UTC). Null while `pending` and when `failed`; a `refunded` payment keeps it.',
            },
          },
        },
        Pagination: {
          type: 'object',
          required: ['page', 'limit', 'total', 'pages'],
          additionalProperties: false,
          properties: {
            page: { type: 'integer', minimum: 1 },
            limit: { type: 'integer', minimum: 1, maximum: PAGE_LIMIT_MAX },
            total: { type: 'integer', minimum: 0, description: 'Payments matching the filter, all pages.' },
            pages: { type: 'integer', minimum: 0 },
          },
        },
        PaymentCreatedResponse: envelope(ref('schemas', 'Payment')),
        PaymentResponse: envelope(ref('schemas', 'PaymentWithCompletion')),
        PaymentListResponse: {
          type: 'object',
          required: ['success', 'data', 'pagination'],
          additionalProperties: false,
          properties: { success: { const: true }, data: { type: 'array', items: ref('schemas', 'PaymentWithCompletion') }, pagination: ref('schemas', 'Pagination') },
        },
        ApiKeyTestResponse: envelope({
          type: 'object',
          required: ['authenticated', 'mode', 'shop'],
          additionalProperties: false,
          properties: {
            authenticated: { const: true },
            mode: { const: 'live', description: 'The service runs in live mode only.' },
            shop: {
              type: 'object',
              required: ['id', 'shop_name'],
              additionalProperties: false,
              properties: { id: { type: 'string', pattern: '^shop_' }, shop_name: { type: 'string' } },
            },
          },
        }),
        Error: {
          title: 'Error envelope',
          type: 'object',
          required: ['success', 'error'],
          additionalProperties: false,
          properties: { success: { const: false }, error: { type: 'string', description: 'The message, in plain words; see each status for the exact set.' } },
        },
      },
      responses: {
        RouteNotFound: errorResponse('No such route: any path not listed here (under `/api/v1` after authentication).', [errorCase('An unknown path.', 'ROUTE_NOT_FOUND')], 'optional'),
        MethodNotAllowed: errorResponse('A listed path with a method it does not support.', [errorCase('`DELETE /payments/{id}`, `PUT /payments`, …', 'METHOD_NOT_ALLOWED')], 'required', { Allow: ref('headers', 'Allow') }),
      },
    },
  };
}

function envelope(data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['success', 'data'],
    additionalProperties: false,
    properties: { success: { const: true }, data },
  };
}
