/**
 * Every number the service promises to its callers (spec, Limits, plus the lengths we chose where it is
 * silent: docs/reference.md), one home each. The rules check against these and the error catalogue's messages are
 * built from them, so a message cannot state a limit the code does not apply.
 */

/** Spec: minimum amount 50 cents. */
export const MINIMUM_AMOUNT_CENTS = 50;
/** A live test from the dashboard (docs/dashboard.md, "Live test"): the smallest payment, never the caller's amount. */
export const LIVE_TEST_AMOUNT_CENTS = MINIMUM_AMOUNT_CENTS;
/** Live tests a shop may run per UTC day (counted from midnight UTC, whatever became of them). */
export const LIVE_TESTS_PER_SHOP_PER_DAY = 5;
/** Spec: `usd` only. */
export const SUPPORTED_CURRENCY = 'usd';
/** Spec: withdrawal minimum 10 USD. */
export const WITHDRAWAL_MINIMUM_CENTS = 1000;

/** Spec: at most 50 metadata keys; key length and total size: 40 characters (our choice) and 5KB (spec). */
export const METADATA_MAX_KEYS = 50;
export const METADATA_KEY_MAX_LENGTH = 40;
export const METADATA_MAX_BYTES = 5 * 1024;

/** Lengths the spec leaves open (docs/reference.md, "The REST API: choices"). URLs: the common browser and CDN limit. */
export const RETURN_URL_MAX_LENGTH = 2048;
export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const CUSTOMER_NAME_MAX_LENGTH = 200;
export const SHOP_NAME_MAX_LENGTH = 200;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
export const REASON_MAX_LENGTH = 500;
export const PAYOUT_REFERENCE_MAX_LENGTH = 200;
export const PAYOUT_ACCOUNT_HOLDER_MAX_LENGTH = 200;

/** Spec, Lists: `limit` defaults to 10 and may not exceed 100. */
export const PAGE_LIMIT_DEFAULT = 10;
export const PAGE_LIMIT_MAX = 100;

/** A free-text payment search (part of an e-mail or name, a metadata value) looks through this many newest payments of its scope. */
export const PAYMENT_TEXT_SEARCH_SCAN = 50_000;
/** Dashboard exports and statements: rows read from the database per keyset page while a CSV is written. */
export const EXPORT_PAGE_ROWS = 1000;
/** The overview chart: how many days back a seller may ask for. */
export const DAILY_VOLUME_MAX_DAYS = 366;

/** A JSON request body (REST and GraphQL): far above any valid payment, small enough to parse at once. */
export const JSON_BODY_MAX_BYTES = 64 * 1024;

// Seller accounts (docs/dashboard.md)
/** PCI DSS v4 8.3.6: at least 12 characters. */
export const PASSWORD_MIN_LENGTH = 12;
/** Bounds the work one sign-in can ask of scrypt. */
export const PASSWORD_MAX_LENGTH = 256;
/** PCI DSS v4 8.3.4: lock after no more than 10 failed attempts, for at least 30 minutes. */
export const SIGN_IN_MAX_FAILURES = 10;
export const SIGN_IN_LOCKOUT_MINUTES = 30;
/**
 * How long a browser that signed in stays a known device of the account (its own failure count, apart from
 * strangers'): the cookie's lifetime, renewed by each sign-in from it. Browsers cap a cookie at 400 days.
 */
export const KNOWN_DEVICE_DAYS = 90;
/** How long an e-mail verification link works. */
export const EMAIL_VERIFICATION_TTL_HOURS = 24;

// Refund review (src/modules/refunds/, counted on the back office's Home by src/modules/back-office/work-queue.ts)
/** Spec: a refund request is reviewed within 24 hours. The console flags requests older than this. */
export const REFUND_REVIEW_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A refund request still waiting this long is near the 24-hour review promise: finance is mailed, and the back office marks it. */
export const REFUND_REVIEW_REMINDER_MS = 20 * 60 * 60 * 1000;

// Mail (src/modules/notifications/, docs/dashboard.md "Notifications")
/** A seller is told when webhook deliveries have kept failing this long, with no delivery succeeding meanwhile. */
export const WEBHOOK_FAILURE_NOTICE_AFTER_HOURS = 24;
