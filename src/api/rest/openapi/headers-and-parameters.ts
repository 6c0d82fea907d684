import { IDEMPOTENCY_WINDOW_MS, PAYMENT_STATUSES } from '../../../modules/payments';
import type { Header, Parameter } from './types';
import { IDEMPOTENCY_KEY_MAX_LENGTH, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '../../../shared/limits';

/** The document's form of a payment id (src/modules/payments/payment-rules.ts checks the same). */
export const PAYMENT_ID_PATTERN = '^pay_[0-9A-Za-z]{24}$';
const REQUEST_ID_PATTERN = '^[A-Za-z0-9._-]{1,64}$';

/** The response headers of components/headers, named by routes (`success.headers`) and error groups. */
export const HEADERS = {
  'X-Request-Id': {
    description:
      'The request\'s id, also on its log line: the caller\'s own `X-Request-Id` when it is 1-64 characters of `[A-Za-z0-9._-]`, otherwise `req_` and 20 random characters. Quote it to support.',
    required: true,
    schema: { type: 'string', pattern: REQUEST_ID_PATTERN },
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
    description: '`true` when this is the stored first answer to the same `Idempotency-Key` and body: nothing was created by this request.',
    required: false,
    schema: { type: 'string', const: 'true' },
  },
  Allow: {
    description: 'The methods the path supports.',
    required: true,
    schema: { type: 'string', examples: ['GET, HEAD, POST'] },
  },
} satisfies Record<string, Header>;

export type HeaderName = keyof typeof HEADERS;

/** The request parameters of components/parameters, named by the routes that take them. */
export const PARAMETERS = {
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
  'Last-Event-ID': {
    name: 'Last-Event-ID',
    in: 'header',
    description: 'Resume the stream after this event: the last message `id` received (an event id, or `0` for before the shop\'s first event). Without it the stream starts now.',
    schema: { type: 'string', pattern: '^(0|evt_[0-9A-Za-z]{24})$' },
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
    schema: { type: 'string', pattern: REQUEST_ID_PATTERN },
  },
} satisfies Record<string, Parameter>;

export type ParameterName = keyof typeof PARAMETERS;
