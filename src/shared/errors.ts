/**
 * The error catalogue: every error a caller can see, typed once. The REST facade turns the
 * HTTP status and message into the spec's envelope; GraphQL exposes the code in `extensions`.
 * Messages marked (spec) are quoted byte for byte from the interface specification.
 */
import {
  CUSTOMER_NAME_MAX_LENGTH,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  JSON_BODY_MAX_BYTES,
  METADATA_KEY_MAX_LENGTH,
  METADATA_MAX_BYTES,
  METADATA_MAX_KEYS,
  MINIMUM_AMOUNT_CENTS,
  PAGE_LIMIT_MAX,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PAYOUT_ACCOUNT_HOLDER_MAX_LENGTH,
  PAYOUT_REFERENCE_MAX_LENGTH,
  REASON_MAX_LENGTH,
  RETURN_URL_MAX_LENGTH,
  SHOP_NAME_MAX_LENGTH,
  SIGN_IN_LOCKOUT_MINUTES,
  SIGN_IN_MAX_FAILURES,
  SUPPORTED_CURRENCY,
  WITHDRAWAL_MINIMUM_CENTS,
} from './limits';

type Message = string | ((...details: never[]) => string);

const catalogue = {
  // 400: create-payment rules
  MISSING_FIELD: { status: 400, message: (field: string) => `Missing required field: ${field}` }, // (spec)
  AMOUNT_TOO_SMALL: { status: 400, message: `Amount must be at least ${MINIMUM_AMOUNT_CENTS} cents` }, // (spec)
  AMOUNT_INVALID: { status: 400, message: 'Amount must be an integer number of cents' },
  AMOUNT_ABOVE_ACCOUNT_MAXIMUM: { status: 400, message: (maximum: number) => `Amount cannot exceed ${maximum} cents for this seller account` },
  CURRENCY_INVALID: { status: 400, message: `Currency must be '${SUPPORTED_CURRENCY}'` }, // (spec)
  RETURN_URL_REQUIRED: { status: 400, message: 'Return URL is required' }, // (spec)
  RETURN_URL_INVALID: { status: 400, message: 'Return URL must be a valid HTTPS URL' }, // (spec)
  RETURN_URL_TOO_LONG: { status: 400, message: `Return URL cannot exceed ${RETURN_URL_MAX_LENGTH} characters` },
  CUSTOMER_EMAIL_INVALID: { status: 400, message: 'Customer email must be a valid email address' },
  CUSTOMER_NAME_INVALID: { status: 400, message: `Customer name must be 1 to ${CUSTOMER_NAME_MAX_LENGTH} characters` },
  FIELD_NOT_STRING: { status: 400, message: (field: string) => `Field ${field} must be a string` },
  METADATA_NOT_OBJECT: { status: 400, message: 'Metadata must be a JSON object' },
  METADATA_TOO_MANY_KEYS: { status: 400, message: `Metadata cannot exceed ${METADATA_MAX_KEYS} keys` }, // (spec)
  METADATA_KEY_INVALID: { status: 400, message: `Metadata keys must be 1 to ${METADATA_KEY_MAX_LENGTH} characters` },
  METADATA_VALUE_INVALID: {
    status: 400,
    message: 'Metadata values must be strings, numbers or booleans',
  },
  METADATA_TEXT_INVALID: { status: 400, message: 'Metadata keys and values cannot contain U+0000 or lone surrogates' },
  METADATA_NUMBER_INEXACT: { status: 400, message: 'Metadata numbers must be within 2^53 - 1 either side of zero; send larger ones as strings' },
  METADATA_TOO_LARGE: { status: 400, message: `Metadata cannot exceed ${METADATA_MAX_BYTES / 1024}KB` },
  // 400/409/422: idempotency
  IDEMPOTENCY_KEY_INVALID: { status: 400, message: `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters` },
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
  LIMIT_INVALID: { status: 400, message: `limit must be an integer from 1 to ${PAGE_LIMIT_MAX}` },
  STATUS_FILTER_INVALID: { status: 400, message: (statuses: string) => `status must be one of: ${statuses}` },
  // 400/413/415: request shape (REST facade)
  INVALID_JSON: { status: 400, message: 'Request body must be valid JSON' },
  BODY_NOT_OBJECT: { status: 400, message: 'Request body must be a JSON object' },
  BODY_TOO_LARGE: { status: 413, message: `Request body cannot exceed ${JSON_BODY_MAX_BYTES / 1024}KB` },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Content-Type must be application/json' },
  UNSUPPORTED_CONTENT_ENCODING: { status: 415, message: 'Content-Encoding must be gzip, deflate, br or identity' },
  TEXT_INPUT_INVALID: {
    status: 400,
    message: (argument: string) => `${argument} cannot contain control characters or lone surrogates (only a reason or note may hold tabs and line breaks)`,
  },
  // 401/403: authentication and authorization
  API_KEY_REQUIRED: { status: 401, message: 'API key required' }, // (spec)
  INVALID_API_KEY: { status: 401, message: 'Invalid API key' }, // (spec)
  SHOP_INACTIVE: { status: 401, message: 'Shop is inactive' }, // (spec)
  SELLER_INACTIVE: { status: 403, message: 'Seller account inactive' }, // (spec)
  UNAUTHENTICATED: { status: 401, message: 'Authentication required' },
  FORBIDDEN: { status: 403, message: 'Access denied' },
  // 400/401/403/409/423: seller accounts and sessions (docs/dashboard.md)
  SIGN_UP_CLOSED: { status: 403, message: 'Sign-up is by invitation only' },
  PASSWORD_TOO_SHORT: { status: 400, message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters` },
  PASSWORD_TOO_LONG: { status: 400, message: `Password cannot exceed ${PASSWORD_MAX_LENGTH} characters` },
  PASSWORD_TOO_COMMON: { status: 400, message: 'Password is too common; choose another' },
  SIGN_IN_FAILED: { status: 401, message: 'Email or password is incorrect' },
  SIGN_IN_FAILED_WITH_CODE: { status: 401, message: 'Email, password or authentication code is incorrect' },
  AUTHENTICATION_CODE_REQUIRED: { status: 401, message: 'Enter the authentication code from your app' },
  AUTHENTICATION_CODE_INVALID: { status: 400, message: 'That authentication code is not valid' },
  TWO_FACTOR_SETUP_REQUIRED: { status: 403, message: 'Finish setting up two-factor authentication from your set-up link first' },
  TWO_FACTOR_REQUIRED: { status: 403, message: 'Two-factor authentication is required for admins' },
  TWO_FACTOR_ALREADY_ON: { status: 409, message: 'Two-factor authentication is already on' },
  TWO_FACTOR_NOT_STARTED: { status: 409, message: 'Two-factor authentication is not set up' },
  PASSWORD_INCORRECT: { status: 400, message: 'Current password is incorrect' },
  REAUTHENTICATION_REQUIRED: {
    status: 401,
    message: (twoFactor: boolean) =>
      twoFactor ? 'Confirm it is you: enter a current authentication code from your app to make this change' : 'Confirm it is you: enter your current password to make this change',
  },
  LINK_INVALID: { status: 400, message: 'This link is invalid, was already used or has expired' },
  SELLER_ALREADY_HAS_PASSWORD: { status: 409, message: 'This seller already has a password; they can reset it from the sign-in page' },
  SESSION_NOT_FOUND: { status: 404, message: 'Session not found' },
  ACCOUNT_LOCKED: {
    status: 423,
    message: `Account locked after ${SIGN_IN_MAX_FAILURES} failed sign-ins; try again in ${SIGN_IN_LOCKOUT_MINUTES} minutes`,
  },
  CSRF_TOKEN_INVALID: { status: 403, message: 'Missing or invalid X-CSRF-Token header' },
  CROSS_SITE_REQUEST_REFUSED: { status: 403, message: "Refused: a change here must come from this site's own page, with the admin session's CSRF token" },
  SESSION_REQUIRED: { status: 401, message: 'Sign in to the dashboard first' },
  VERIFICATION_TOKEN_INVALID: { status: 400, message: 'This verification link is invalid or has expired' },
  EMAIL_NOT_VERIFIED: { status: 403, message: 'Verify your email address before your first withdrawal' },
  SHOP_INACTIVE_READ_ONLY: {
    status: 403,
    message: 'Your shop is deactivated: you can still read its history, but nothing can be changed until our team reactivates it',
  },
  LIVE_TEST_LIMIT_REACHED: {
    status: 429,
    message: (limit: number) => `This shop has run its ${limit} live tests for today (UTC); try again after midnight UTC`,
  },
  SHOP_CLOSED_BY_ADMIN: {
    status: 403,
    message: 'Your shop was closed by our team: you can still read your account, but nothing can be changed and a new shop cannot be opened from the dashboard; contact support',
  },
  // 403/404: separated admin duties (docs/admin.md)
  FORBIDDEN_ROLE: {
    status: 403,
    message: (operation: string, needed: string, role: string) => `${operation} needs the ${needed} role; your admin role is ${role}`,
  },
  SELF_APPROVAL_NOT_ALLOWED: {
    status: 403,
    message: (what: string) => `You recorded this ${what}; another finance admin must approve it (four eyes)`,
  },
  ADMIN_TOKEN_NOT_FOUND: { status: 404, message: 'Admin token not found' },
  ADMIN_TOKEN_IN_BROWSER: { status: 403, message: 'Admin tokens are for scripts against /graphql; in a browser, sign in at /admin with your password and authenticator code' },
  ADMIN_TOKEN_NOT_YOURS: {
    status: 403,
    message: 'An admin token is issued only to the admin who asks for it: omit adminId. A colleague without access gets a set-up link from the operator (admin-setup-link)',
  },
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
  SHOP_CANNOT_TAKE_PAYMENTS: { status: 409, message: 'This shop cannot take payments right now.' },
  PROCESSOR_UNAVAILABLE: {
    status: 503,
    message: 'We could not confirm the payment with your bank. Do not pay again; this page will update.',
  },
  OPERATION_NOT_ALLOWED: {
    status: 401,
    message: 'Authentication required: without credentials only the checkout operations may run',
  },
  // webhooks: shop settings and the delivery log
  WEBHOOK_URL_INVALID: { status: 400, message: 'Webhook URL must be a valid HTTPS URL without credentials' },
  WEBHOOK_URL_FORBIDDEN: {
    status: 400,
    message: 'Webhook URL must not point to a loopback, private, link-local or otherwise internal address',
  },
  WEBHOOK_URL_NOT_SET: { status: 409, message: 'The shop has no webhook URL' },
  WEBHOOK_EVENT_UNKNOWN: { status: 400, message: 'Webhook events must be among payment.completed, payment.failed, payment.refunded, refund.failed, withdrawal.paid, withdrawal.rejected' },
  WEBHOOK_DELIVERY_NOT_FOUND: { status: 404, message: 'Webhook delivery not found' },
  WEBHOOK_DELIVERY_PENDING: {
    status: 409,
    message: 'The delivery is still scheduled; it can be re-sent once it has failed or been delivered',
  },
  WEBHOOK_TEST_RATE_LIMITED: {
    status: 429,
    message: (max: number, seconds: number) =>
      `Too many test deliveries: at most ${max} per shop per minute. Try again in ${seconds} seconds.`,
  },
  // the event stream and the request log (docs/integrate.md, "Events on your machine"; docs/dashboard.md)
  EVENT_STREAM_CURSOR_INVALID: { status: 400, message: 'Last-Event-ID must be the id of an event of this shop, or 0' },
  EVENT_STREAMS_EXCEEDED: {
    status: 429,
    retryAfterSeconds: 60,
    message: (max: number) => `Too many event streams: at most ${max} open at once per shop. Close one and try again.`,
  },
  REQUEST_LOG_CURSOR_INVALID: { status: 400, message: "before must be a request log page's nextBefore" },
  REQUEST_LOG_SEARCH_INVALID: { status: 400, message: `Search the request log with at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters (a whole Idempotency-Key)` },
  SHOP_NOT_FOUND: { status: 404, message: 'Shop not found' },
  // admin console: refunds, withdrawals, sellers and shops (docs/admin.md)
  REASON_REQUIRED: { status: 400, message: `A reason of 1 to ${REASON_MAX_LENGTH} characters is required` },
  REFUND_NOT_FOUND: { status: 404, message: 'Refund not found' },
  REFUND_PAYMENT_NOT_COMPLETED: {
    status: 409,
    message: (status: string) => `Only a completed payment can be refunded (this one is ${status})`,
  },
  REFUND_AMOUNT_INVALID: { status: 400, message: 'A refund amount must be a whole number of cents, at least 1' },
  REFUND_EXCEEDS_REMAINING: {
    status: 409,
    message: (remaining: number) =>
      `The refund is more than remains refundable on this payment: ${remaining} cents (${(remaining / 100).toFixed(2)} USD), counting requests still open`,
  },
  REFUND_CHARGEBACK_STANDS: {
    status: 409,
    message: 'A chargeback stands against this payment: the cardholder has the money back already, so it cannot be refunded while the dispute is open',
  },
  REFUND_STATE_CONFLICT: {
    status: 409,
    message: (action: string, status: string) => `Only requested refunds can be ${action} (this one is ${status})`,
  },
  WITHDRAWAL_NOT_FOUND: { status: 404, message: 'Withdrawal not found' },
  DISPUTE_NOT_FOUND: { status: 404, message: 'Dispute not found' },
  SIMULATOR_ONLY: {
    status: 409,
    message: 'Only the simulated acquirer can be told what an issuer does; with a real acquirer, disputes move by its notifications alone',
  },
  DISPUTE_NOT_CHARGED_BACK: {
    status: 409,
    message: (status: string) => `Only a dispute that stands charged back can be reversed (this one is ${status})`,
  },
  WITHDRAWAL_BELOW_MINIMUM: {
    status: 400,
    message: `Withdrawal amount must be at least ${WITHDRAWAL_MINIMUM_CENTS} cents (${WITHDRAWAL_MINIMUM_CENTS / 100} USD)`,
  },
  WITHDRAWAL_EXCEEDS_BALANCE: {
    status: 400,
    message: (available: bigint) => `Withdrawal amount exceeds the available balance of ${available} cents`,
  },
  WITHDRAWAL_BALANCE_NEGATIVE: {
    status: 400,
    message: 'Withdrawals are refused while the balance is negative',
  },
  ACQUIRER_NOTIFICATION_NOT_OPEN: {
    status: 409,
    message: 'No flagged, waiting or rejected acquirer notification has this id (it may have been applied or dismissed already)',
  },
  SETTLEMENT_PROPOSAL_NOT_FOUND: { status: 404, message: 'Settlement proposal not found' },
  SETTLEMENT_PROPOSAL_STATE_CONFLICT: {
    status: 409,
    message: (action: string, status: string) => `Only proposed settlements can be ${action} (this one is ${status})`,
  },
  SETTLEMENT_ALREADY_PROPOSED: {
    status: 409,
    message: 'An answer is already recorded for this payment or refund: confirm or reject it first',
  },
  SETTLEMENT_ANSWER_DOES_NOT_FIT: { status: 409, message: (problem: string) => `This answer cannot settle it. ${problem}` },
  WITHDRAWAL_PAYOUT_NOT_COVERED: {
    status: 409,
    message: (available: bigint) =>
      `This withdrawal cannot be marked paid while the seller's balance after approved refunds is negative (${available} cents): the money it held is owed to cardholders. Give an override reason only if the transfer has already left`,
  },
  WITHDRAWAL_NOT_COVERED: {
    status: 409,
    message: (available: bigint) =>
      `This withdrawal cannot be approved while the seller's available balance is negative (${available} cents): a refund or chargeback booked after the request has used the money it held. Approve it once the balance is back to zero or more, or reject it`,
  },
  WITHDRAWAL_STATE_CONFLICT: {
    status: 409,
    message: (action: string, expected: string, status: string) =>
      `Only ${expected} withdrawals can be ${action} (this one is ${status})`,
  },
  PAYOUT_REFERENCE_REQUIRED: { status: 400, message: `A payout reference of 1 to ${PAYOUT_REFERENCE_MAX_LENGTH} characters is required` },
  SELLER_NOT_FOUND: { status: 404, message: 'Seller not found' },
  SHOP_DELETED: { status: 409, message: 'Shop is deleted' },
  SELLER_ALREADY_HAS_SHOP: { status: 409, message: 'This seller already has a shop (one shop per seller account)' },
  PAYOUT_ACCOUNT_HOLDER_INVALID: { status: 400, message: `Account holder must be 1 to ${PAYOUT_ACCOUNT_HOLDER_MAX_LENGTH} characters` },
  PAYOUT_ACCOUNT_NUMBER_INVALID: { status: 400, message: 'Bank account number must be 6 to 34 letters and digits (an IBAN or a local account number)' },
  SHOP_NAME_MISMATCH: { status: 400, message: 'The name typed is not the shop name; the shop was not deleted' },
  EMAIL_TAKEN: { status: 409, message: 'That email address is already registered' },
  EMAIL_INVALID: { status: 400, message: 'Email must be a valid email address' },
  SHOP_NAME_INVALID: { status: 400, message: `Shop name must be 1 to ${SHOP_NAME_MAX_LENGTH} characters` },
  DATE_RANGE_INVALID: { status: 400, message: 'createdFrom must be before createdTo' },
  // the seller dashboard's balance, statements and chart (docs/dashboard.md)
  BALANCE_LINE_KIND_INVALID: { status: 400, message: (kinds: string) => `A balance transaction type is one of: ${kinds}` },
  MONTH_INVALID: { status: 400, message: 'A month is written YYYY-MM, for example 2026-03' },
  MONTH_NOT_BEGUN: { status: 400, message: 'There is no statement of a month that has not begun' },
  MONTH_BEFORE_ACCOUNT: { status: 400, message: (first: string) => `There is no statement of a month before the account was opened; its first month is ${first}` },
  DAYS_INVALID: { status: 400, message: (max: number) => `The chart covers 1 to ${max} days` },
  PAYOUT_ACCOUNT_REQUIRED: { status: 409, message: 'Add the bank account your withdrawals are paid to (Where the payout goes) before requesting a withdrawal' },
  EMAIL_PREFIX_INVALID: { status: 400, message: 'Search by the start of an e-mail address with 3 to 254 characters' },
  METADATA_SEARCH_INVALID: { status: 400, message: `Search metadata with a key of 1 to ${METADATA_KEY_MAX_LENGTH} characters and a value of at most 500 characters` },
  // mail: receipts, notices, seller notifications (src/modules/notifications/)
  SUPPORT_EMAIL_INVALID: { status: 400, message: 'Support email must be a valid email address, without spaces, quotes or brackets' },
  MAIL_NOT_FOUND: { status: 404, message: 'Mail not found' },
  MAIL_NOT_RESENDABLE: {
    status: 409,
    message: (status: string) => `Only a mail that failed, or whose delivery is unknown, can be sent again; this one is ${status}`,
  },
  // GraphQL document limits
  QUERY_TOO_DEEP: {
    status: 400,
    message: (depth: number, max: number) => `Query is too deep: depth ${depth} exceeds the maximum of ${max}`,
  },
  QUERY_TOO_COSTLY: {
    status: 400,
    message: (cost: number, max: number) =>
      `Query is too expensive: cost ${cost} exceeds the maximum of ${max} (lower page sizes or select fewer lists)`,
  },
  QUERY_TOO_MANY_ALIASES: {
    status: 400,
    message: (count: number, max: number) => `Query has too many aliases: ${count} exceeds the maximum of ${max}`,
  },
  QUERY_COST_BUDGET_EXCEEDED: {
    status: 429,
    // A dashboard session spends its seller's budget, not a key's: its refusal names what a seller signed in knows.
    message: (max: number, seconds: number, spender: 'key' | 'dashboard' = 'key') =>
      `Query cost budget exceeded: at most ${max} per minute for ${spender === 'dashboard' ? "each seller's dashboard" : 'each API key'}. Try again in ${seconds} seconds.`,
  },
  INTROSPECTION_NOT_ALLOWED: { status: 403, message: 'Introspection is available to admins only' },
  // 429/500/503
  RATE_LIMITED: {
    status: 429,
    message: (seconds: number) => `Rate limit exceeded. Try again in ${seconds} seconds.`, // (spec)
  },
  INTERNAL: { status: 500, message: 'An unexpected error occurred' }, // (spec)
  UNAVAILABLE: { status: 503, retryAfterSeconds: 5, message: 'Service temporarily unavailable' },
} satisfies Record<string, { status: number; message: Message; retryAfterSeconds?: number }>;

export type ErrorCode = keyof typeof catalogue;

/** The catalogue itself, for documents and tests that list every answer (the OpenAPI document, the test helpers). */
export const ERROR_CATALOGUE: Readonly<Record<ErrorCode, { status: number; message: Message; retryAfterSeconds?: number }>> = catalogue;

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
