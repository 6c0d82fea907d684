import { createPrivateKey, createPublicKey } from 'node:crypto';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { parseRedisTarget } from './redis-url';
import { StartupError } from './startup-error';

/** Everything the service reads from its environment, validated once at start. */
export interface Config {
  /** PORT: TCP port of the HTTP server (default 3000; 0 picks a free port). */
  port: number;
  /** BASE_URL: public root address, used to build `checkout_url`; an https address also turns on HSTS on every answer; unset = `http://localhost:` and the port actually bound (PORT=0 included). */
  baseUrl: string | undefined;
  /** TRUST_PROXY: which proxies' X-Forwarded-For to believe, so per-client limits count the real client behind a load balancer (docs/scaling.md); unset = trust no proxy. */
  trustProxy: TrustProxy;
  /** GRAPHQL_STACK_TRACES: 1 adds stack traces to GraphQL error answers; only with a localhost BASE_URL (default 0). */
  graphqlStackTraces: boolean;
  /** DATABASE_URL: PostgreSQL connection string; unset = embedded PGlite under DATA_DIR. */
  databaseUrl: string | undefined;
  /** DATABASE_CREATE: 1 creates the database named in DATABASE_URL when it does not exist (default 0: a missing database stops the start, so a misspelt name is never silently created). */
  databaseCreate: boolean;
  /** DATA_DIR: where the embedded database keeps its files (default ./.data). */
  dataDir: string;
  /** DATABASE_POOL_SIZE: connections per process (default 10). */
  databasePoolSize: number;
  /** DATABASE_STATEMENT_TIMEOUT_MS: PostgreSQL cancels any statement of the service running longer (default 5000; 0 = no limit). Migrations and check-ledger lift it. */
  databaseStatementTimeoutMs: number;
  /** DATABASE_POOLER: `pgbouncer-transaction` when DATABASE_URL is PgBouncer in transaction mode: no per-connection settings are sent, set statement_timeout per role (docs/scaling.md) (default none). */
  databasePooler: 'none' | 'pgbouncer-transaction';
  /** REDIS_URL: Redis for shared rate limits and queues (docs/scaling.md); unset = in-process equivalents (one instance only). */
  redisUrl: string | undefined;
  /** REDIS_KEY_PREFIX: namespace of every Redis key (default "hcp:"), so several deployments or test runs can share a server. */
  redisKeyPrefix: string;
  /** RATE_LIMIT_PER_MINUTE: requests per API key per minute (default 100). */
  rateLimitPerMinute: number;
  /** AUTH_FAILURES_PER_MINUTE: failed authentications per client address per minute before 429 (default 30). */
  authFailuresPerMinute: number;
  /** LOG_LEVEL: the least severe level logged; business events (payment created, refund approved …) are info (default info). */
  logLevel: string;
  /** LOG_FORMAT: `json` (one JSON object a line), `pretty` (readable lines) or `auto`: pretty when standard output is a terminal (default auto). */
  logFormat: 'auto' | 'json' | 'pretty';
  /** METRICS_TOKEN: bearer token Prometheus sends to GET /metrics; unset = /metrics answers loopback clients only. */
  metricsToken: string | undefined;
  /** WEB_CONCURRENCY: service processes sharing the port (default 1; more needs DATABASE_URL). */
  webConcurrency: number;
  /** CARD_PROCESSOR: the acquirer adapter: `simulated` (test cards, charges nothing) or `adyen` (Adyen's Checkout API, docs/acquirers.md) (default simulated). */
  cardProcessor: 'simulated' | 'adyen';
  /** Adyen's credentials and endpoints; null unless CARD_PROCESSOR=adyen (docs/acquirers.md). */
  adyen: AdyenConfig | null;
  /** SIMULATED_ACQUIRER_DELAY_MS: network time the simulated acquirer pretends to take (default 0). */
  simulatedAcquirerDelayMs: number;
  /** SIMULATED_REFUND_DELAY_MS: how long the simulated acquirer takes to carry out a refund, 0 being at once (default 0). */
  simulatedRefundDelayMs: number;
  /** SIMULATED_EVENT_DELAY_MS: how long after the charge the simulated acquirer tells of its dispute card's chargeback, and after a refund of its refund-failure card that the refund failed (default 5000). */
  simulatedEventDelayMs: number;
  /** ADMIN_TOKEN_TTL_DAYS: days an admin token is accepted after it is issued, see docs/admin.md (default 90). */
  adminTokenTtlDays: number;
  /** SELLER_SIGNUP: `open` lets anyone sign up at the dashboard; `invite` refuses self sign-up (default open). */
  sellerSignup: 'open' | 'invite';
  /** SESSION_IDLE_TIMEOUT_MS: a dashboard session ends after this long without a request; PCI DSS 8.2.8 (default 900000). */
  sessionIdleTimeoutMs: number;
  /** SESSION_ABSOLUTE_TIMEOUT_MS: a dashboard session ends this long after sign-in, however busy (default 43200000). */
  sessionAbsoluteTimeoutMs: number;
  /** SESSION_COOKIES_INSECURE: 1 names the session and CSRF cookies without the `__Host-` prefix and sends them without `Secure`, so a browser keeps them over plain http on a host other than localhost; local development only, refused with an https BASE_URL (default 0). */
  sessionCookiesInsecure: boolean;
  /** SMTP_URL: mail server for every mail of the mail outbox: account mails (verification, invitation, password reset …), receipts, refund notices, seller notifications; unset = mails are kept in the database for `npm run cli -- mail list` and, on a local BASE_URL, the viewer at /dev/mail, with a warning at start (docs/operations.md, "Mail"). */
  smtpUrl: string | undefined;
  /** MAIL_FROM: the From address of every mail; its display name names the service (receipts come from `<shop name> via <display name>`); unset = `Payments <no-reply@…>` on BASE_URL's host. */
  mailFrom: string;
  /** ACCOUNT_ATTEMPTS_PER_CLIENT: sign-ins, sign-ups, password resets and set-up links one client address may try per 15 minutes, whatever the e-mail address (default 30). */
  accountAttemptsPerClient: number;
  /** PASSWORD_RESET_MAILS_PER_HOUR: password reset mails one e-mail address may receive per hour, whoever asks; past it the answer is the same and no mail goes out (default 3). */
  passwordResetMailsPerHour: number;
  /** REFUND_PAGE_VIEWS_PER_CLIENT: refund tracking pages (`/refunds/<token>`) one client address may open per 15 minutes, right link or wrong, so links cannot be guessed at speed (default 60). */
  refundPageViewsPerClient: number;
  /** ACCOUNT_SECRETS_KEY: the 256-bit key sealing TOTP secrets, payout account numbers, webhook secrets and account mails' words in the database with AES-256-GCM; keep it out of the database and its backups; unset = they are stored as they are (docs/operations.md, "Security settings"). */
  accountSecretsKey: string | undefined;
  /** ACCOUNT_SECRETS_OLD_KEYS: earlier values of ACCOUNT_SECRETS_KEY, still opening what they sealed until `npm run cli -- reencrypt-secrets` has sealed everything again with the current key; unset = none. */
  accountSecretsOldKeys: string[];
  /** STATEMENT_SIGNING_KEY: the Ed25519 private key signing sellers' JSON statements, PEM (PKCS#8) or that key's DER in base64 (`openssl genpkey -algorithm ed25519`); its public half is served at /.well-known/statement-keys.json; required unless BASE_URL is localhost; unset = with a localhost BASE_URL a key is generated once and kept in DATA_DIR (docs/dashboard.md, "Signed statements"). */
  statementSigningKey: string | undefined;
  /** STATEMENT_SIGNING_OLD_PUBLIC_KEYS: the public keys of earlier values of STATEMENT_SIGNING_KEY, still published so the statements they signed stay verifiable; unset = none. */
  statementSigningOldPublicKeys: string[];
  /** PAYMENT_EXPIRES_AFTER_MS: a pending payment takes no card (nor 3-D Secure answer) this long after it was created, and reads as failed with the reason `expired` (default 86400000). */
  paymentExpiresAfterMs: number;
  /** Refund execution (docs/admin.md). */
  refunds: RefundConfig;
  /** Reconciliation of unknown acquirer outcomes (docs/checkout.md, "Reconciliation"). */
  reconciliation: ReconciliationConfig;
  /** Abuse limits of GraphQL documents sent to /graphql (docs/admin.md). */
  graphqlLimits: GraphQLLimits;
  /** Card-testing defence on the checkout page (docs/checkout.md, "Card-testing defence"). */
  checkoutLimits: {
    /** CHECKOUT_WINDOW_SECONDS: the sliding window all checkout limits count over (default 600). */
    windowSeconds: number;
    /** CHECKOUT_SUBMISSIONS_PER_CLIENT: card submissions per client address per window (default 10). */
    submissionsPerClient: number;
    /** CHECKOUT_SUBMISSIONS_PER_SHOP: card submissions per shop per window (default 1000). */
    submissionsPerShop: number;
    /** CHECKOUT_DECLINES_PER_CLIENT: declines from one address that block it for the window (default 5). */
    declinesPerClient: number;
    /** CHECKOUT_DECLINES_PER_SHOP: declines on one shop that pause its card submissions (default 100). */
    declinesPerShop: number;
  };
  /** Webhook delivery (docs/reference.md, "Webhooks"). */
  webhooks: WebhookConfig;
  /** Receipts, refund notices and seller notifications: the mail outbox and its workers (docs/decisions/0001-mail-outbox.md). */
  mail: MailConfig;
  /** Traces with OpenTelemetry, off unless an exporter is named (docs/operations.md, "Tracing"). */
  tracing: TracingConfig;
  /** LEDGER_CHECK_INTERVAL_MS: how often a scrape of /metrics may start check-ledger's invariants in the background for `ledger_invariant_violations` (each process at most once per interval; the scrape reads the last result); 0 = never (default 3600000). */
  ledgerCheckIntervalMs: number;
  /** The largest payment a seller may create, by its account status, in cents; null = no maximum (docs/admin.md). */
  paymentMaximums: {
    /** PAYMENT_MAX_CENTS_NEW: the largest payment of a seller whose account is `new`, in cents; 0 = no maximum (default 100000). */
    new: number | null;
    /** PAYMENT_MAX_CENTS_VERIFIED: the largest payment of a `verified` seller, in cents; 0 = no maximum (default 0). */
    verified: number | null;
    /** PAYMENT_MAX_CENTS_RESTRICTED: the largest payment of a `restricted` seller, in cents; 0 = no maximum (default 10000). */
    restricted: number | null;
  };
}

export interface TracingConfig {
  /** On when OTEL_SDK_DISABLED is not true and OTEL_TRACES_EXPORTER or an OTLP endpoint names where spans go. */
  enabled: boolean;
  /** OTEL_SDK_DISABLED: `true` (or 1) keeps tracing off whatever else is set (default false). */
  sdkDisabled: boolean;
  /** OTEL_TRACES_EXPORTER: `otlp` or `console` (spans printed to standard output) turns tracing on, `none` keeps it off; unset = `otlp` when an OTLP endpoint is set, otherwise tracing is off. */
  exporter: 'otlp' | 'console' | 'none' | undefined;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the OTLP collector's base address (`/v1/traces` is added); setting it turns tracing on; unset = tracing off unless OTEL_TRACES_EXPORTER or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set. */
  endpoint: string | undefined;
  /** OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: the full address spans are sent to, taking precedence over OTEL_EXPORTER_OTLP_ENDPOINT; setting it turns tracing on; unset = none. */
  tracesEndpoint: string | undefined;
  /** OTEL_EXPORTER_OTLP_PROTOCOL: how spans are sent to the collector (default http/protobuf). */
  protocol: 'http/protobuf' | 'http/json' | 'grpc';
  /** OTEL_SERVICE_NAME: the `service.name` every span carries (default payments). */
  serviceName: string;
}

export interface MailConfig {
  /** MAIL_WORKERS_IN_SERVICE: 1 sends the mail outbox from the API process too; 0 leaves it to `npm run worker` (default 1). */
  workersInService: boolean;
  /** MAIL_WORKER_CONCURRENCY: mails in flight at once per process (default 4). */
  workerConcurrency: number;
  /** MAIL_POLL_INTERVAL_MS: how often the mail relay looks for due mails written by other processes (default 1000). */
  pollIntervalMs: number;
  /** MAIL_TIMEOUT_MS: how long each SMTP wait may take: connecting, the greeting, each answer (default 30000). */
  timeoutMs: number;
  /** MAIL_RETRY_BASE_DELAY_MS: the wait before the first retry of a mail SMTP did not take; each later one doubles, up to 120x this (default 30000). */
  retryBaseDelayMs: number;
  /** MAIL_GIVE_UP_AFTER_MS: a mail is retried until this long after it was written, then marked failed for admins (default 172800000). */
  giveUpAfterMs: number;
  /** MAIL_SWEEP_INTERVAL_MS: how often each process looks for webhooks failing for more than a day, to tell their sellers (default 300000). */
  sweepIntervalMs: number;
  /** MAIL_CUSTOMER_MAILS_PER_DAY: customer mails (receipts, refund mails) one mailbox may receive in 24 hours, from all shops, its spellings counted together; past it they are not sent (`suppressed`) (default 20). */
  customerMailsPerDay: number;
}

export interface WebhookConfig {
  /** WEBHOOK_TIMEOUT_MS: how long one delivery attempt may take, connect to last byte read (default 10000). */
  timeoutMs: number;
  /** WEBHOOK_RETRY_BASE_DELAY_MS: the first retry's delay; each later one doubles, up to 720x this (default 60000). */
  retryBaseDelayMs: number;
  /** WEBHOOK_MAX_ATTEMPTS: attempts before a delivery is `failed` (default 16: about 3 days 5 hours at the default base). */
  maxAttempts: number;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: 1 lets webhook URLs be http:// and reach loopback/private addresses; local development and tests only (default 0). */
  allowPrivateNetworks: boolean;
  /** WEBHOOK_WORKERS_IN_SERVICE: 1 delivers from the API process too; 0 leaves delivery to `npm run worker` (default 1). */
  workersInService: boolean;
  /** WEBHOOK_WORKER_CONCURRENCY: deliveries in flight at once per process (default 50: a delivery mostly waits on the seller's endpoint). */
  workerConcurrency: number;
  /** WEBHOOK_POLL_INTERVAL_MS: how often the relay looks for due deliveries written by other processes (default 1000). */
  pollIntervalMs: number;
  /** EVENT_STREAM_POLL_MS: how often an open event stream (`GET /api/v1/events/stream`) looks for new events (default 1000). */
  streamPollMs: number;
  /** WEBHOOK_TEST_DELIVERIES_PER_MINUTE: test deliveries (`sendTestWebhook`) per shop per minute, whoever asks (default 5). */
  testDeliveriesPerMinute: number;
}

export interface AdyenConfig {
  /** ADYEN_API_KEY: the API key of Adyen's web-service user (X-API-Key); required with CARD_PROCESSOR=adyen; unset = none. */
  apiKey: string;
  /** ADYEN_MERCHANT_ACCOUNT: the Adyen merchant account every payment is booked to; required with CARD_PROCESSOR=adyen; unset = none. */
  merchantAccount: string;
  /** ADYEN_ENVIRONMENT: `test` (checkout-test.adyen.com) or `live` (default test). */
  environment: 'test' | 'live';
  /** ADYEN_LIVE_URL_PREFIX: the live endpoint prefix from Adyen's Customer Area (Developers > API URLs); required when ADYEN_ENVIRONMENT=live; unset = none. */
  liveUrlPrefix: string | undefined;
  /** ADYEN_HMAC_KEY: the hex HMAC key of the standard-notification webhook, checked on every notification item; required with CARD_PROCESSOR=adyen; unset = none. */
  hmacKey: string;
  /** ADYEN_NOTIFICATION_USERNAME: the basic-auth user name Adyen sends with notifications; required with CARD_PROCESSOR=adyen; unset = none. */
  notificationUsername: string;
  /** ADYEN_NOTIFICATION_PASSWORD: the basic-auth password Adyen sends with notifications; required with CARD_PROCESSOR=adyen; unset = none. */
  notificationPassword: string;
  /** ADYEN_CHECKOUT_ENDPOINT: the Checkout API's base address, version included; unset = Adyen's own v71 address for ADYEN_ENVIRONMENT. */
  checkoutEndpoint: string;
  /** ADYEN_TIMEOUT_MS: how long one Adyen call may take before its outcome counts as unknown (default 30000). */
  timeoutMs: number;
}

export interface RefundConfig {
  /** REFUND_SWEEP_INTERVAL_MS: how often each instance looks for approved refunds no job has carried out (default 30000). */
  sweepIntervalMs: number;
  /** REFUND_PROCESSING_TIMEOUT_MS: a refund `processing` for longer than this, unacknowledged (its worker died), is tried again (default 300000). */
  processingTimeoutMs: number;
}

export interface ReconciliationConfig {
  /** RECONCILE_AFTER_MS: a payment or refund left `processing` longer than this is looked up at the acquirer; keep it above the acquirer's time-out (default 60000). */
  afterMs: number;
  /** RECONCILE_INTERVAL_MS: how often each instance sweeps for them; a look-up leases its row this long (default 15000). */
  intervalMs: number;
  /** RECONCILE_GIVE_UP_MS: an outcome still unknown this long after it went processing is flagged "needs attention" for admins (default 86400000). */
  giveUpMs: number;
}

export interface GraphQLLimits {
  /** GRAPHQL_MAX_DEPTH: deepest field nesting a document may have (default 10). */
  maxDepth: number;
  /** GRAPHQL_MAX_COST: most objects a document may ask for, lists counted at their page size (default 5000). */
  maxCost: number;
  /** GRAPHQL_MAX_ALIASES: most aliased fields in one document from a seller; admins are not limited (default 20). */
  maxAliases: number;
  /** GRAPHQL_COST_PER_MINUTE: query cost (as GRAPHQL_MAX_COST measures it) one seller key, or one seller's dashboard sessions together, may spend per minute (default 20000). */
  costPerMinute: number;
  /** GRAPHQL_REQUESTS_PER_KEY: a seller key's /graphql requests running at once per process; the rest wait their turn (default 1). */
  requestsPerKey: number;
}

/** Express's `trust proxy` value: false (trust no one), a hop count, or the trusted proxies' addresses. */
export type TrustProxy = false | number | string[];

export class ConfigError extends StartupError {}

type Env = Record<string, string | undefined>;

export const DEFAULT_ADMIN_TOKEN_TTL_DAYS = 90;
/** A day's customer mails to one mailbox: a busy shopper's receipts and refund mails, far below a flood. */
export const DEFAULT_CUSTOMER_MAILS_PER_DAY = 20;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) fail('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  const base = baseUrl(env.BASE_URL ?? `http://localhost:${port}`);
  return {
    port,
    baseUrl: env.BASE_URL ? baseUrl(env.BASE_URL) : undefined,
    trustProxy: trustProxy(env),
    graphqlStackTraces: graphqlStackTraces(env, base),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    databaseCreate: flag(env, 'DATABASE_CREATE', false),
    dataDir: path.resolve(env.DATA_DIR ?? '.data'),
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    databaseStatementTimeoutMs: integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 5000, 0, 3_600_000),
    databasePooler: oneOf(env, 'DATABASE_POOLER', ['none', 'pgbouncer-transaction'] as const),
    redisUrl: redisUrl(env),
    redisKeyPrefix: env.REDIS_KEY_PREFIX ?? 'hcp:',
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 100, 1, 1_000_000_000),
    authFailuresPerMinute: integer(env, 'AUTH_FAILURES_PER_MINUTE', 30, 1, 1_000_000_000),
    logLevel,
    logFormat: oneOf(env, 'LOG_FORMAT', ['auto', 'json', 'pretty'] as const),
    webConcurrency: webConcurrency(env),
    metricsToken: env.METRICS_TOKEN || undefined,
    cardProcessor: oneOf(env, 'CARD_PROCESSOR', ['simulated', 'adyen'] as const),
    adyen: adyen(env),
    simulatedAcquirerDelayMs: integer(env, 'SIMULATED_ACQUIRER_DELAY_MS', 0, 0, 60_000),
    simulatedRefundDelayMs: integer(env, 'SIMULATED_REFUND_DELAY_MS', 0, 0, 600_000),
    simulatedEventDelayMs: integer(env, 'SIMULATED_EVENT_DELAY_MS', 5000, 0, 3_600_000),
    adminTokenTtlDays: integer(env, 'ADMIN_TOKEN_TTL_DAYS', DEFAULT_ADMIN_TOKEN_TTL_DAYS, 1, 3650),
    sellerSignup: oneOf(env, 'SELLER_SIGNUP', ['open', 'invite'] as const),
    sessionIdleTimeoutMs: integer(env, 'SESSION_IDLE_TIMEOUT_MS', 900_000, 1000, 900_000),
    sessionAbsoluteTimeoutMs: integer(env, 'SESSION_ABSOLUTE_TIMEOUT_MS', 43_200_000, 1000, 86_400_000),
    sessionCookiesInsecure: sessionCookiesInsecure(env, base),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: env.MAIL_FROM || `Payments <no-reply@${new URL(base).hostname}>`,
    accountAttemptsPerClient: integer(env, 'ACCOUNT_ATTEMPTS_PER_CLIENT', 30, 1, 1_000_000_000),
    passwordResetMailsPerHour: integer(env, 'PASSWORD_RESET_MAILS_PER_HOUR', 3, 1, 1000),
    refundPageViewsPerClient: integer(env, 'REFUND_PAGE_VIEWS_PER_CLIENT', 60, 1, 1_000_000_000),
    accountSecretsKey: hexKey(env, 'ACCOUNT_SECRETS_KEY'),
    accountSecretsOldKeys: oldHexKeys(env),
    statementSigningKey: statementSigningKey(env),
    statementSigningOldPublicKeys: oldPublicKeys(env),
    paymentExpiresAfterMs: integer(env, 'PAYMENT_EXPIRES_AFTER_MS', 86_400_000, 10, 30 * 86_400_000),
    refunds: {
      sweepIntervalMs: integer(env, 'REFUND_SWEEP_INTERVAL_MS', 30_000, 10, 3_600_000),
      processingTimeoutMs: integer(env, 'REFUND_PROCESSING_TIMEOUT_MS', 300_000, 10, 86_400_000),
    },
    reconciliation: {
      afterMs: integer(env, 'RECONCILE_AFTER_MS', 60_000, 10, 86_400_000),
      intervalMs: integer(env, 'RECONCILE_INTERVAL_MS', 15_000, 10, 3_600_000),
      giveUpMs: integer(env, 'RECONCILE_GIVE_UP_MS', 86_400_000, 10, 30 * 86_400_000),
    },
    graphqlLimits: {
      maxDepth: integer(env, 'GRAPHQL_MAX_DEPTH', 10, 2, 100),
      maxCost: integer(env, 'GRAPHQL_MAX_COST', 5000, 10, 1_000_000),
      maxAliases: integer(env, 'GRAPHQL_MAX_ALIASES', 20, 0, 100_000),
      costPerMinute: integer(env, 'GRAPHQL_COST_PER_MINUTE', 20_000, 10, 1_000_000_000),
      requestsPerKey: integer(env, 'GRAPHQL_REQUESTS_PER_KEY', 1, 1, 1000),
    },
    checkoutLimits: {
      windowSeconds: integer(env, 'CHECKOUT_WINDOW_SECONDS', 600, 1, 86_400),
      submissionsPerClient: integer(env, 'CHECKOUT_SUBMISSIONS_PER_CLIENT', 10, 1, 1_000_000_000),
      submissionsPerShop: integer(env, 'CHECKOUT_SUBMISSIONS_PER_SHOP', 1000, 1, 1_000_000_000),
      declinesPerClient: integer(env, 'CHECKOUT_DECLINES_PER_CLIENT', 5, 1, 1_000_000_000),
      declinesPerShop: integer(env, 'CHECKOUT_DECLINES_PER_SHOP', 100, 1, 1_000_000_000),
    },
    webhooks: {
      timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
      retryBaseDelayMs: integer(env, 'WEBHOOK_RETRY_BASE_DELAY_MS', 60_000, 1, 3_600_000),
      maxAttempts: integer(env, 'WEBHOOK_MAX_ATTEMPTS', 16, 1, 100),
      allowPrivateNetworks: flag(env, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
      workersInService: flag(env, 'WEBHOOK_WORKERS_IN_SERVICE', true),
      workerConcurrency: integer(env, 'WEBHOOK_WORKER_CONCURRENCY', 50, 1, 1000),
      pollIntervalMs: integer(env, 'WEBHOOK_POLL_INTERVAL_MS', 1000, 10, 60_000),
      streamPollMs: integer(env, 'EVENT_STREAM_POLL_MS', 1000, 100, 60_000),
      testDeliveriesPerMinute: integer(env, 'WEBHOOK_TEST_DELIVERIES_PER_MINUTE', 5, 1, 1000),
    },
    mail: {
      workersInService: flag(env, 'MAIL_WORKERS_IN_SERVICE', true),
      workerConcurrency: integer(env, 'MAIL_WORKER_CONCURRENCY', 4, 1, 1000),
      pollIntervalMs: integer(env, 'MAIL_POLL_INTERVAL_MS', 1000, 10, 60_000),
      timeoutMs: integer(env, 'MAIL_TIMEOUT_MS', 30_000, 100, 300_000),
      retryBaseDelayMs: integer(env, 'MAIL_RETRY_BASE_DELAY_MS', 30_000, 1, 3_600_000),
      giveUpAfterMs: integer(env, 'MAIL_GIVE_UP_AFTER_MS', 172_800_000, 1000, 30 * 86_400_000),
      sweepIntervalMs: integer(env, 'MAIL_SWEEP_INTERVAL_MS', 300_000, 10, 86_400_000),
      customerMailsPerDay: integer(env, 'MAIL_CUSTOMER_MAILS_PER_DAY', DEFAULT_CUSTOMER_MAILS_PER_DAY, 1, 1_000_000),
    },
    tracing: tracingSettings(env),
    ledgerCheckIntervalMs: integer(env, 'LEDGER_CHECK_INTERVAL_MS', 3_600_000, 0, 7 * 86_400_000),
    paymentMaximums: {
      new: maximumCents(env, 'PAYMENT_MAX_CENTS_NEW', 100_000),
      verified: maximumCents(env, 'PAYMENT_MAX_CENTS_VERIFIED', 0),
      restricted: maximumCents(env, 'PAYMENT_MAX_CENTS_RESTRICTED', 10_000),
    },
  };
}

/**
 * Adyen's settings: each is read and checked whenever set, and the credentials are required when
 * CARD_PROCESSOR=adyen (null otherwise). The default endpoint is the v71 Checkout API, the version whose
 * published contract the adapter is tested against (docs/acquirers.md).
 */
function adyen(env: Env): AdyenConfig | null {
  const wanted = env.CARD_PROCESSOR === 'adyen';
  const required = (name: string): string => env[name] || (wanted ? fail(name, 'is required with CARD_PROCESSOR=adyen') : '');
  const apiKey = required('ADYEN_API_KEY');
  const merchantAccount = required('ADYEN_MERCHANT_ACCOUNT');
  const environment = oneOf(env, 'ADYEN_ENVIRONMENT', ['test', 'live'] as const);
  const liveUrlPrefix = env.ADYEN_LIVE_URL_PREFIX || undefined;
  if (liveUrlPrefix !== undefined && !/^[a-z0-9-]+$/i.test(liveUrlPrefix)) fail('ADYEN_LIVE_URL_PREFIX', `must be letters, digits and dashes (got "${liveUrlPrefix}")`);
  if (wanted && environment === 'live' && !liveUrlPrefix) fail('ADYEN_LIVE_URL_PREFIX', 'is required with ADYEN_ENVIRONMENT=live');
  const hmacKey = required('ADYEN_HMAC_KEY');
  if (hmacKey && !/^([0-9a-f]{2})+$/i.test(hmacKey)) fail('ADYEN_HMAC_KEY', 'must be the hex key from the Customer Area');
  const ownDefault = environment === 'live' ? `https://${liveUrlPrefix}-checkout-live.adyenpayments.com/checkout/v71` : 'https://checkout-test.adyen.com/v71';
  const config: AdyenConfig = {
    apiKey,
    merchantAccount,
    environment,
    liveUrlPrefix,
    hmacKey,
    notificationUsername: required('ADYEN_NOTIFICATION_USERNAME'),
    notificationPassword: required('ADYEN_NOTIFICATION_PASSWORD'),
    checkoutEndpoint: (url(env, 'ADYEN_CHECKOUT_ENDPOINT', ['https:', 'http:']) ?? ownDefault).replace(/\/+$/, ''),
    timeoutMs: integer(env, 'ADYEN_TIMEOUT_MS', 30_000, 100, 600_000),
  };
  return wanted ? config : null;
}

/**
 * The standard OTEL_* variables the service itself reads (the SDK reads them too, and its other OTEL_* variables
 * apply: headers, sampler, resource attributes, batch sizes). Unlike the SDK's own default (an OTLP exporter on
 * localhost:4318), tracing stays off until an exporter or an endpoint is named: with it off no part of the SDK is
 * loaded. Read before anything else by src/platform/observability/tracing-bootstrap.ts.
 */
export function tracingSettings(env: Env): TracingConfig {
  const sdkDisabled = flag(env, 'OTEL_SDK_DISABLED', false);
  const rawExporter = env.OTEL_TRACES_EXPORTER?.trim();
  const exporter = rawExporter ? oneOf(env, 'OTEL_TRACES_EXPORTER', ['otlp', 'console', 'none'] as const) : undefined;
  const endpoint = url(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']);
  const tracesEndpoint = url(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', ['http:', 'https:']);
  const named = exporter !== undefined ? exporter !== 'none' : endpoint !== undefined || tracesEndpoint !== undefined;
  return {
    enabled: !sdkDisabled && named,
    sdkDisabled,
    exporter,
    endpoint,
    tracesEndpoint,
    protocol: oneOf(env, 'OTEL_EXPORTER_OTLP_PROTOCOL', ['http/protobuf', 'http/json', 'grpc'] as const),
    serviceName: env.OTEL_SERVICE_NAME || 'payments',
  };
}

/** A per-payment maximum in cents; 0 means none (the spec's minimum is 50, so 0 can mean nothing else). */
function maximumCents(env: Env, name: string, fallback: number): number | null {
  return integer(env, name, fallback, 0, Number.MAX_SAFE_INTEGER) || null;
}

/** A 256-bit key written as 64 hexadecimal characters. */
function hexKey(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^[0-9a-fA-F]{64}$/.test(raw)) fail(name, 'must be 64 hexadecimal characters (e.g. `openssl rand -hex 32`)');
  return raw.toLowerCase();
}

/** Keys that sealed secrets before a rotation: each a 256-bit hex key, and only beside a current key. */
function oldHexKeys(env: Env): string[] {
  const raw = env.ACCOUNT_SECRETS_OLD_KEYS;
  if (raw === undefined || raw.trim() === '') return [];
  const keys = raw.split(',').map((key) => key.trim().toLowerCase());
  if (keys.some((key) => !/^[0-9a-f]{64}$/.test(key))) fail('ACCOUNT_SECRETS_OLD_KEYS', 'must be comma-separated keys of 64 hexadecimal characters each');
  if (!env.ACCOUNT_SECRETS_KEY) fail('ACCOUNT_SECRETS_OLD_KEYS', 'needs ACCOUNT_SECRETS_KEY, the key secrets are sealed with from now on');
  return keys;
}

/** An Ed25519 key as PEM, or its DER in base64 (one line, easier to set); answered as PEM, and never echoed in a refusal. */
function ed25519Key(name: string, kind: 'private' | 'public', raw: string): string {
  const pem = raw.startsWith('-----BEGIN');
  const der = <T extends 'pkcs8' | 'spki'>(type: T) => ({ key: Buffer.from(raw, 'base64'), format: 'der' as const, type });
  try {
    // createPublicKey would also take a private key (and derive its public half): one has no place among public keys.
    const key = kind === 'private' ? createPrivateKey(pem ? raw : der('pkcs8')) : raw.includes('PRIVATE') ? null : createPublicKey(pem ? raw : der('spki'));
    if (key?.asymmetricKeyType === 'ed25519') return key.export({ format: 'pem', type: kind === 'private' ? 'pkcs8' : 'spki' }).toString();
  } catch {
    // Refused below, in the same words as a key of another type.
  }
  return fail(name, kind === 'private' ? 'must be an Ed25519 private key, PEM (PKCS#8) or base64 DER' : 'must be Ed25519 public keys, PEM or base64 DER, comma-separated');
}

function statementSigningKey(env: Env): string | undefined {
  const raw = env.STATEMENT_SIGNING_KEY?.trim();
  return raw ? ed25519Key('STATEMENT_SIGNING_KEY', 'private', raw) : undefined;
}

function oldPublicKeys(env: Env): string[] {
  const keys = (env.STATEMENT_SIGNING_OLD_PUBLIC_KEYS ?? '').split(',').map((key) => key.trim()).filter(Boolean);
  return keys.map((key) => ed25519Key('STATEMENT_SIGNING_OLD_PUBLIC_KEYS', 'public', key));
}

/** BASE_URL names this machine (localhost or a loopback address): local development, not a service others reach. */
export function isLocalBaseUrl(base: string): boolean {
  const host = new URL(base).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || (ipaddr.isValid(host) && ipaddr.process(host).range() === 'loopback');
}

/** Cookies without `Secure` travel over plain http: never where BASE_URL says the service is on https. */
function sessionCookiesInsecure(env: Env, base: string): boolean {
  const wanted = flag(env, 'SESSION_COOKIES_INSECURE', false);
  if (wanted && base.startsWith('https:')) fail('SESSION_COOKIES_INSECURE', `is for plain-http local development only (BASE_URL ${base} is https)`);
  return wanted;
}

/** `1`/`true` or `0`/`false`. */
function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  return fail(name, `must be 1 or 0 (got "${raw}")`);
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * `true` (Express: believe the left-most X-Forwarded-For entry) is refused: any client could then choose
 * the address every per-client limit counts against.
 */
function trustProxy(env: Env): TrustProxy {
  const raw = env.TRUST_PROXY?.trim();
  if (!raw || raw === '0' || raw === 'false') return false;
  if (/^\d+$/.test(raw)) return integer({ TRUST_PROXY: raw }, 'TRUST_PROXY', 0, 1, 10);
  if (raw === 'true') fail('TRUST_PROXY', 'true would let any client choose its address; give the number of proxies in front (e.g. 1) or their addresses');
  const entries = raw.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => !PROXY_NAMES.includes(entry) && !ipaddr.isValid(entry) && !ipaddr.isValidCIDR(entry));
  if (bad !== undefined) {
    fail('TRUST_PROXY', `must be a hop count or a comma-separated list of addresses, CIDR ranges and ${PROXY_NAMES.join(', ')} (got "${bad}")`);
  }
  return entries;
}

/** Stack traces name server paths and code: never on a service others can reach. */
function graphqlStackTraces(env: Env, base: string): boolean {
  const wanted = flag(env, 'GRAPHQL_STACK_TRACES', false);
  if (wanted && !isLocalBaseUrl(base)) fail('GRAPHQL_STACK_TRACES', `is for local debugging only (BASE_URL ${base} is not localhost)`);
  return wanted;
}

/** The embedded database lives inside one process, so several processes need a real PostgreSQL. */
function webConcurrency(env: Env): number {
  const processes = integer(env, 'WEB_CONCURRENCY', 1, 1, 64);
  if (processes > 1 && !env.DATABASE_URL) fail('WEB_CONCURRENCY', 'above 1 needs DATABASE_URL (the embedded database serves one process)');
  return processes;
}

/** The first of `allowed` is the default. */
function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[]): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return allowed[0];
  if (!allowed.includes(raw as T)) fail(name, `must be one of ${allowed.join(', ')} (got "${raw}")`);
  return raw as T;
}

function fail(name: string, problem: string): never {
  throw new ConfigError(`Invalid configuration: ${name} ${problem}`);
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    fail(name, `must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!URL.canParse(raw) || !protocols.includes(new URL(raw).protocol)) {
    fail(name, `must be a ${protocols.map((p) => p.replace(':', '://')).join(' or ')} URL`);
  }
  return raw;
}

function redisUrl(env: Env): string | undefined {
  const raw = env.REDIS_URL;
  if (raw === undefined || raw === '') return undefined;
  if (!parseRedisTarget(raw)) fail('REDIS_URL', 'must be a redis:// or rediss:// URL, or redis-cluster://host1:port1,host2:port2 (rediss-cluster:// with TLS)');
  return raw;
}

/** Where `checkout_url` points: BASE_URL, or this machine on the port actually bound (PORT=0 picks one). */
export function publicBaseUrl(config: Pick<Config, 'baseUrl'>, boundPort: number): string {
  return config.baseUrl ?? `http://localhost:${boundPort}`;
}

function baseUrl(raw: string): string {
  if (!URL.canParse(raw) || !['http:', 'https:'].includes(new URL(raw).protocol)) {
    fail('BASE_URL', `must be an http(s) URL (got "${raw}")`);
  }
  return raw.replace(/\/+$/, '');
}
