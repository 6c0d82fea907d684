import { domainError } from '../shared/errors';
import { EMAIL_MAX_LENGTH } from '../shared/email';
import { PAYMENT_STATUSES } from '../payments/payment-status';
import type { JsonSchema } from './openapi/types';
import { CUSTOMER_NAME_MAX_LENGTH, METADATA_KEY_MAX_LENGTH, METADATA_MAX_BYTES, METADATA_MAX_KEYS, MINIMUM_AMOUNT_CENTS, RETURN_URL_MAX_LENGTH, SUPPORTED_CURRENCY } from '../shared/limits';

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
