import path from 'node:path';

/** Everything the service reads from its environment, validated once at start. */
export interface Config {
  /** PORT: TCP port of the HTTP server (default 3000; 0 picks a free port). */
  port: number;
  /** BASE_URL: public root address, used to build `checkout_url` (default http://localhost:$PORT). */
  baseUrl: string;
  /** DATABASE_URL: PostgreSQL connection string; unset = embedded PGlite under DATA_DIR. */
  databaseUrl: string | undefined;
  /** DATA_DIR: where the embedded database keeps its files (default ./.data). */
  dataDir: string;
  /** DATABASE_POOL_SIZE: connections per process (default 10). */
  databasePoolSize: number;
  /** REDIS_URL: Redis for shared rate limits and queues; unset = in-process equivalents (one instance only). */
  redisUrl: string | undefined;
  /** REDIS_KEY_PREFIX: namespace of every Redis key (default "hcp:"), so several deployments or test runs can share a server. */
  redisKeyPrefix: string;
  /** RATE_LIMIT_PER_MINUTE: requests per API key per minute (default 100). */
  rateLimitPerMinute: number;
  /** AUTH_FAILURES_PER_MINUTE: failed authentications per client address per minute before 429 (default 30). */
  authFailuresPerMinute: number;
  /** LOG_LEVEL: pino level (default info). */
  logLevel: string;
  /** CARD_PROCESSOR: the acquirer adapter; only `simulated` exists today (default). */
  cardProcessor: 'simulated';
  /** SIMULATED_ACQUIRER_DELAY_MS: network time the simulated acquirer pretends to take (default 0). */
  simulatedAcquirerDelayMs: number;
  /** Card-testing defence on the checkout page (README, "Card testing defence"). */
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
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) fail('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  return {
    port,
    baseUrl: baseUrl(env.BASE_URL ?? `http://localhost:${port}`),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir: path.resolve(env.DATA_DIR ?? '.data'),
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisKeyPrefix: env.REDIS_KEY_PREFIX ?? 'hcp:',
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 100, 1, 1_000_000_000),
    authFailuresPerMinute: integer(env, 'AUTH_FAILURES_PER_MINUTE', 30, 1, 1_000_000_000),
    logLevel,
    cardProcessor: oneOf(env, 'CARD_PROCESSOR', ['simulated'] as const),
    simulatedAcquirerDelayMs: integer(env, 'SIMULATED_ACQUIRER_DELAY_MS', 0, 0, 60_000),
    checkoutLimits: {
      windowSeconds: integer(env, 'CHECKOUT_WINDOW_SECONDS', 600, 1, 86_400),
      submissionsPerClient: integer(env, 'CHECKOUT_SUBMISSIONS_PER_CLIENT', 10, 1, 1_000_000_000),
      submissionsPerShop: integer(env, 'CHECKOUT_SUBMISSIONS_PER_SHOP', 1000, 1, 1_000_000_000),
      declinesPerClient: integer(env, 'CHECKOUT_DECLINES_PER_CLIENT', 5, 1, 1_000_000_000),
      declinesPerShop: integer(env, 'CHECKOUT_DECLINES_PER_SHOP', 100, 1, 1_000_000_000),
    },
  };
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

function baseUrl(raw: string): string {
  if (!URL.canParse(raw) || !['http:', 'https:'].includes(new URL(raw).protocol)) {
    fail('BASE_URL', `must be an http(s) URL (got "${raw}")`);
  }
  return raw.replace(/\/+$/, '');
}
