import { domainError } from '../shared/errors';
import { PAYMENT_STATUSES } from '../payments/payment-status';

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

function jsonString(fields: Record<string, unknown>, name: string): string | null {
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
