import { domainError } from '../../shared/errors';
import { EMAIL_MAX_LENGTH } from '../../shared/email';
import { PAYMENT_STATUSES } from '../../modules/payments';
import { anyDetails, errorCase, type ErrorGroup } from './openapi/error-responses';
import type { JsonSchema } from './openapi/types';
import { CUSTOMER_NAME_MAX_LENGTH, IDEMPOTENCY_KEY_MAX_LENGTH, METADATA_KEY_MAX_LENGTH, METADATA_MAX_BYTES, METADATA_MAX_KEYS, MINIMUM_AMOUNT_CENTS, RETURN_URL_MAX_LENGTH, SUPPORTED_CURRENCY } from '../../shared/limits';

export const METADATA_KB = METADATA_MAX_BYTES / 1024;

export const METADATA_VALUE: JsonSchema = {
  type: ['string', 'number', 'boolean'],
  description: 'A string, a finite number or a boolean. Nested objects, arrays and null are refused.',
};

/** The create body as the document shows it, its limits from the payment rules' constants. */
export const CREATE_PAYMENT_BODY = {
  type: 'object',
  required: ['amount', 'currency', 'return_url'],
  properties: {
    amount: {
      type: 'integer',
      minimum: MINIMUM_AMOUNT_CENTS,
      maximum: Number.MAX_SAFE_INTEGER,
      description: `Cents of USD, at least ${MINIMUM_AMOUNT_CENTS}. A JSON number with a zero fraction (\`50.00\`) is that integer; any other fraction, a string or a boolean is refused.`,
      examples: [1234],
    },
    currency: { type: 'string', const: SUPPORTED_CURRENCY, description: `Only \`${SUPPORTED_CURRENCY}\` (lowercase).` },
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
} satisfies JsonSchema;

export type CreatePaymentField = keyof typeof CREATE_PAYMENT_BODY.properties;
export const CREATE_PAYMENT_FIELDS = Object.keys(CREATE_PAYMENT_BODY.properties) as CreatePaymentField[];
/** The fields a JSON string must carry (FIELD_NOT_STRING otherwise). */
export const STRING_FIELDS = ['currency', 'return_url', 'customer_email', 'customer_name'] as const satisfies readonly CreatePaymentField[];

const anyOf = (words: readonly string[]) => words.join('|');

/**
 * What the create request's checks answer beyond every route's errors (openapi/error-responses.ts), one group
 * per status, each case with when it happens, in the order the fields are checked. Shown by the create route.
 */
export const CREATE_PAYMENT_ERRORS: ErrorGroup[] = [
  {
    description: 'The body or a field breaks a rule.',
    cases: [
      errorCase('The body is not valid JSON, or a gzip, deflate or br `Content-Encoding` that does not decode.', 'INVALID_JSON'),
      errorCase('The body is JSON but not an object (`[]`, `42`, `"x"`, `null`).', 'BODY_NOT_OBJECT'),
      errorCase('`amount` absent or null.', 'MISSING_FIELD', 'amount'),
      errorCase('`amount` with a fraction (`50.5`), a string, a boolean, or beyond 2^53.', 'AMOUNT_INVALID'),
      errorCase(`\`amount\` below ${MINIMUM_AMOUNT_CENTS}.`, 'AMOUNT_TOO_SMALL'),
      errorCase('`currency` absent or null.', 'MISSING_FIELD', 'currency'),
      anyDetails(errorCase('A string field sent as another JSON type (`currency: 840`).', 'FIELD_NOT_STRING', 'currency'), anyOf(STRING_FIELDS)),
      errorCase(`\`currency\` other than \`${SUPPORTED_CURRENCY}\`.`, 'CURRENCY_INVALID'),
      errorCase('`return_url` absent, null or empty.', 'RETURN_URL_REQUIRED'),
      errorCase(`\`return_url\` longer than ${RETURN_URL_MAX_LENGTH} characters.`, 'RETURN_URL_TOO_LONG'),
      errorCase('`return_url` not an absolute `https://` URL with a host, or with `user:password@`, whitespace, U+0000 or a lone surrogate.', 'RETURN_URL_INVALID'),
      errorCase(`\`customer_email\` not an address a mail can go to (no spaces, quotes, brackets or controls), over ${EMAIL_MAX_LENGTH} characters, or with a lone surrogate.`, 'CUSTOMER_EMAIL_INVALID'),
      errorCase(`\`customer_name\` blank, over ${CUSTOMER_NAME_MAX_LENGTH} characters, or with U+0000 or a lone surrogate.`, 'CUSTOMER_NAME_INVALID'),
      errorCase('`metadata` not an object (an array, a string, a number).', 'METADATA_NOT_OBJECT'),
      errorCase(`More than ${METADATA_MAX_KEYS} metadata keys.`, 'METADATA_TOO_MANY_KEYS'),
      errorCase(`A metadata key empty or over ${METADATA_KEY_MAX_LENGTH} characters.`, 'METADATA_KEY_INVALID'),
      errorCase('A metadata value nested, null, or not a finite number.', 'METADATA_VALUE_INVALID'),
      errorCase('A metadata number beyond 2^53 - 1 in size (JSON readers round it).', 'METADATA_NUMBER_INEXACT'),
      errorCase('U+0000 or a lone surrogate in a metadata key or string value.', 'METADATA_TEXT_INVALID'),
      errorCase(`Metadata over ${METADATA_KB} KB (UTF-8 bytes of its JSON text).`, 'METADATA_TOO_LARGE'),
      errorCase(`An \`Idempotency-Key\` of more than ${IDEMPOTENCY_KEY_MAX_LENGTH} characters.`, 'IDEMPOTENCY_KEY_INVALID'),
    ],
  },
  {
    description: 'A request with the same `Idempotency-Key` is still running.',
    cases: [errorCase('The first request with this key has not answered yet.', 'IDEMPOTENCY_KEY_IN_FLIGHT')],
    headers: ['Retry-After'],
  },
  { description: 'The body is larger than 64 KB.', cases: [errorCase('Body over 64 KB.', 'BODY_TOO_LARGE')] },
  {
    description: 'The body is not declared as JSON.',
    cases: [
      errorCase('`Content-Type` other than `application/json`, or a charset that is not `utf-*`.', 'UNSUPPORTED_MEDIA_TYPE'),
      errorCase('A `Content-Encoding` other than gzip, deflate, br or identity.', 'UNSUPPORTED_CONTENT_ENCODING'),
    ],
  },
  {
    description: 'The `Idempotency-Key` was already used with a different body; the message names the fields that differ.',
    cases: [
      anyDetails(
        errorCase('Same key, different amount and metadata.', 'IDEMPOTENCY_KEY_REUSED', 'amount, metadata'),
        `(${anyOf(CREATE_PAYMENT_FIELDS)})(, (${anyOf(CREATE_PAYMENT_FIELDS)}))*`,
      ),
    ],
  },
];

/**
 * JSON shape -> GraphQL variables. Only JSON types are checked here (GraphQL cannot coerce a string
 * into a number); every business rule is the core's, so GraphQL callers get the same answers.
 */
export function createPaymentVariables(body: unknown, idempotencyKey: string | undefined) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw domainError('BODY_NOT_OBJECT');
  const fields = body as Record<string, unknown>;
  return {
    idempotencyKey: idempotencyKey ?? null,
    input: {
      amount: jsonNumber(fields.amount),
      currency: jsonString(fields, 'currency'),
      returnUrl: jsonString(fields, 'return_url'),
      customerEmail: jsonString(fields, 'customer_email'),
      customerName: jsonString(fields, 'customer_name'),
      metadata: fields.metadata ?? null,
    },
  };
}

/** A finite JSON number passes through (50.00 parses as 50); anything else is not an amount. */
function jsonNumber(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw domainError('AMOUNT_INVALID');
  return value;
}

function jsonString(fields: Record<string, unknown>, name: (typeof STRING_FIELDS)[number]): string | null {
  const value = fields[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw domainError('FIELD_NOT_STRING', name);
  return value;
}

/** `?page=&limit=&status=` -> GraphQL variables; ranges are checked by the core. */
export function listPaymentsVariables(query: Record<string, unknown>) {
  return {
    page: queryInteger(query.page, 'PAGE_INVALID'),
    limit: queryInteger(query.limit, 'LIMIT_INVALID'),
    status: queryStatus(query.status),
  };
}

function queryInteger(value: unknown, code: 'PAGE_INVALID' | 'LIMIT_INVALID'): number | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value)) throw domainError(code);
  return Number(value);
}

function queryStatus(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || !PAYMENT_STATUSES.includes(value)) throw domainError('STATUS_FILTER_INVALID', PAYMENT_STATUSES.join(', '));
  return value.toUpperCase();
}
