/**
 * The error catalogue: every error a caller can see, typed once. The REST facade turns the
 * HTTP status and message into the spec's envelope; GraphQL exposes the code in `extensions`.
 * Messages marked (spec) are quoted byte for byte from the interface specification.
 */
type Message = string | ((...details: never[]) => string);

const catalogue = {
  // 400: create-payment rules
  MISSING_FIELD: { status: 400, message: (field: string) => `Missing required field: ${field}` }, // (spec)
  AMOUNT_TOO_SMALL: { status: 400, message: 'Amount must be at least 50 cents' }, // (spec)
  AMOUNT_INVALID: { status: 400, message: 'Amount must be an integer number of cents' },
  CURRENCY_INVALID: { status: 400, message: "Currency must be 'usd'" }, // (spec)
  RETURN_URL_REQUIRED: { status: 400, message: 'Return URL is required' }, // (spec)
  RETURN_URL_INVALID: { status: 400, message: 'Return URL must be a valid HTTPS URL' }, // (spec)
  RETURN_URL_TOO_LONG: { status: 400, message: 'Return URL cannot exceed 2048 characters' },
  CUSTOMER_EMAIL_INVALID: { status: 400, message: 'Customer email must be a valid email address' },
  CUSTOMER_NAME_INVALID: { status: 400, message: 'Customer name must be 1 to 200 characters' },
  FIELD_NOT_STRING: { status: 400, message: (field: string) => `Field ${field} must be a string` },
  METADATA_NOT_OBJECT: { status: 400, message: 'Metadata must be a JSON object' },
  METADATA_TOO_MANY_KEYS: { status: 400, message: 'Metadata cannot exceed 50 keys' }, // (spec)
  METADATA_KEY_INVALID: { status: 400, message: 'Metadata keys must be 1 to 40 characters' },
  METADATA_VALUE_INVALID: {
    status: 400,
    message: 'Metadata values must be strings, numbers or booleans',
  },
  METADATA_TOO_LARGE: { status: 400, message: 'Metadata cannot exceed 5KB' },
  // 400/409/422: idempotency
  IDEMPOTENCY_KEY_INVALID: { status: 400, message: 'Idempotency-Key must be 1 to 255 characters' },
  IDEMPOTENCY_KEY_IN_FLIGHT: {
    status: 409,
    retryAfterSeconds: 1,
    message: 'A request with this Idempotency-Key is still being processed. Retry shortly.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    message: (fields: string) =>
      `Idempotency-Key was already used with different parameters: ${fields}`,
  },
  // 400: lists
  PAGE_INVALID: { status: 400, message: 'page must be a positive integer' },
  LIMIT_INVALID: { status: 400, message: 'limit must be an integer from 1 to 100' },
  STATUS_FILTER_INVALID: {
    status: 400,
    message: 'status must be one of: pending, completed, failed, refunded',
  },
  // 400/413/415: request shape (REST facade)
  INVALID_JSON: { status: 400, message: 'Request body must be valid JSON' },
  BODY_NOT_OBJECT: { status: 400, message: 'Request body must be a JSON object' },
  BODY_TOO_LARGE: { status: 413, message: 'Request body cannot exceed 64KB' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Content-Type must be application/json' },
  // 401/403: authentication and authorization
  API_KEY_REQUIRED: { status: 401, message: 'API key required' }, // (spec)
  INVALID_API_KEY: { status: 401, message: 'Invalid API key' }, // (spec)
  SHOP_INACTIVE: { status: 401, message: 'Shop is inactive' }, // (spec)
  SELLER_INACTIVE: { status: 403, message: 'Seller account inactive' }, // (spec)
  UNAUTHENTICATED: { status: 401, message: 'Authentication required' },
  FORBIDDEN: { status: 403, message: 'Access denied' },
  // 404/405
  PAYMENT_NOT_FOUND: { status: 404, message: 'Payment not found' }, // (spec)
  ROUTE_NOT_FOUND: { status: 404, message: 'Route not found' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed' },
  // checkout (public): what the customer reads on the page
  CARD_NUMBER_INVALID: { status: 400, message: 'The card number is not valid.' },
  CARD_EXPIRY_INVALID: { status: 400, message: 'The expiry date is not valid or is in the past.' },
  CARD_SECURITY_CODE_INVALID: { status: 400, message: 'The security code must be 3 or 4 digits.' },
  CHECKOUT_RATE_LIMITED: {
    status: 429,
    message: 'Too many payment attempts from here. Please try again later.',
  },
  PROCESSOR_UNAVAILABLE: {
    status: 503,
    message: 'We could not confirm the payment with your bank. Do not pay again; this page will update.',
  },
  OPERATION_NOT_ALLOWED: {
    status: 401,
    message: 'Authentication required: without credentials only the checkout operations may run',
  },
  // 429/500/503
  RATE_LIMITED: {
    status: 429,
    message: (seconds: number) => `Rate limit exceeded. Try again in ${seconds} seconds.`, // (spec)
  },
  INTERNAL: { status: 500, message: 'An unexpected error occurred' }, // (spec)
  UNAVAILABLE: { status: 503, retryAfterSeconds: 5, message: 'Service temporarily unavailable' },
} satisfies Record<string, { status: number; message: Message; retryAfterSeconds?: number }>;

export type ErrorCode = keyof typeof catalogue;

type Details<C extends ErrorCode> = (typeof catalogue)[C]['message'] extends (
  ...details: infer A
) => string
  ? A
  : [];

/** An error whose code, HTTP status and message come from the catalogue. */
export class DomainError extends Error {
  readonly status: number;
  /** When set, the answer carries `Retry-After` (seconds): the caller may try again after it. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
    const entry: { status: number; retryAfterSeconds?: number } = catalogue[code];
    this.status = entry.status;
    this.retryAfterSeconds = entry.retryAfterSeconds;
  }
}

export function domainError<C extends ErrorCode>(code: C, ...details: Details<C>): DomainError {
  const message: Message = catalogue[code].message;
  const text = typeof message === 'string' ? message : (message as (...a: unknown[]) => string)(...details);
  return new DomainError(code, text);
}

export function httpStatusOf(code: ErrorCode): number {
  return catalogue[code].status;
}
