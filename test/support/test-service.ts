import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig } from '../../src/shared/config';
import { startService, type RunningService } from '../../src/apps/service';
import { createLogger } from '../../src/shared/logger';
import { createSellerWithShop, type NewShop } from '../../src/modules/identity/shop-provisioning';
import { suiteFixture } from './suite-fixture';
import { TEST_REDIS_URL, testRun } from './test-env';

export interface TestService extends RunningService {
  /** Every log line the service wrote, parsed. */
  logs: Record<string, unknown>[];
  /** At each flush of the log stream, how many lines had been written. */
  logFlushes: number[];
  em(): EntityManager;
  createShop(overrides?: Partial<{ email: string; shopName: string; webhookUrl: string }>): Promise<NewShop>;
}

/** The service's last error-level log lines, as JSON: what a refused answer or a failed wait shows of its cause. */
export function lastLoggedErrors(service: Pick<TestService, 'logs'>, count = 3): string[] {
  return service.logs.filter((line) => Number(line.level) >= 50).slice(-count).map((line) => JSON.stringify(line));
}

/** BASE_URL below is not localhost, where the service refuses to start without a statement signing key. */
const TEST_STATEMENT_KEY = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

/**
 * The real service on a free port, against the run's PostgreSQL database and real Redis.
 * `redisNamespace` lets several instances share (or not share) one set of counters.
 */
export async function startTestService(env: Record<string, string> = {}, redisNamespace = randomBytes(4).toString('hex')): Promise<TestService> {
  const { databaseUrl, redisPrefix } = testRun();
  const config = loadConfig({
    PORT: '0',
    BASE_URL: 'https://pay.example.test',
    ...databaseOf(databaseUrl, env),
    DATABASE_POOL_SIZE: '5',
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: `${redisPrefix}${redisNamespace}:`,
    LOG_LEVEL: 'info',
    // Every test client is 127.0.0.1: the card-testing limits get their own test with small values.
    CHECKOUT_SUBMISSIONS_PER_CLIENT: '1000000',
    CHECKOUT_DECLINES_PER_CLIENT: '1000000',
    CHECKOUT_DECLINES_PER_SHOP: '1000000',
    // Test sellers start `new`: the account-status maximums get their own test (account-limits.test.ts).
    PAYMENT_MAX_CENTS_NEW: '0',
    PAYMENT_MAX_CENTS_RESTRICTED: '0',
    // Every test client is 127.0.0.1 and suites sign up many sellers: the per-client limit has its own test.
    ACCOUNT_ATTEMPTS_PER_CLIENT: '1000000',
    // Suites of a worker share its database and mail the same customers (ann@example.com) all run long: the daily
    // cap per mailbox has its own tests (mail-floods.test.ts, test/module/mail-recipient-cap.test.ts).
    MAIL_CUSTOMER_MAILS_PER_DAY: '1000000',
    STATEMENT_SIGNING_KEY: TEST_STATEMENT_KEY,
    ...env,
  });
  const logs: Record<string, unknown>[] = [];
  const logFlushes: number[] = [];
  const sink = Object.assign(new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
      done();
    },
  }), { flush: (done: () => void) => (logFlushes.push(logs.length), done()) });
  const service = await startService(config, createLogger(config.logLevel, sink));
  return {
    ...service,
    async stop() {
      await service.stop();
      if (!config.databaseUrl) fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
    logs,
    logFlushes,
    em: () => service.database.orm.em.fork(),
    createShop: (overrides = {}) =>
      createSellerWithShop(service.database.orm.em.fork(), {
        email: overrides.email ?? `seller-${randomBytes(6).toString('hex')}@example.com`,
        shopName: overrides.shopName ?? 'Test Shop',
        webhookUrl: overrides.webhookUrl,
      }, service.services.accounts.secrets),
  };
}

/**
 * The run's PostgreSQL database (or the suite's own, in `env`); with TEST_DATABASE=embedded, a fresh embedded PGlite in
 * a directory of its own instead, as `npm start` runs without DATABASE_URL (`npm run test:embedded`).
 */
function databaseOf(databaseUrl: string, env: Record<string, string>): Record<string, string> {
  if (process.env.TEST_DATABASE !== 'embedded') return { DATABASE_URL: databaseUrl };
  delete env.DATABASE_URL;
  return { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'payments-embedded-')) };
}

/**
 * Service settings for a fixture: an object, or a function read when the service starts, for settings that come
 * from a fixture declared before it (`() => ({ SMTP_URL: smtp.url })`).
 */
export type TestEnv = Record<string, string> | (() => Record<string, string>);

const settingsOf = (env: TestEnv): Record<string, string> => (typeof env === 'function' ? env() : env);

/**
 * The service (started with `env`) for the file or the enclosing `describe`, stopped after it: the way a suite
 * starts one (a lint holds suites to the fixtures). Read its fields inside hooks and tests.
 */
export function useTestService(env: TestEnv = {}, redisNamespace?: string): Readonly<TestService> {
  return suiteFixture('useTestService', () => startTestService(settingsOf(env), redisNamespace), (service) => service.stop(), SERVICE_START_TIMEOUT_MS);
}

/**
 * How long a suite's hook may take to start a service: a fresh embedded database runs every migration in PGlite
 * first, seconds on a quiet machine and more than the usual 30 s when three suites do it at once on a loaded one.
 */
export const SERVICE_START_TIMEOUT_MS = process.env.TEST_DATABASE === 'embedded' ? 180_000 : undefined;

export interface ServiceWithShop {
  service: TestService;
  /** The API key of one shop created at start. */
  apiKey: string;
}

/** The most common set-up: the service (started with `env`) and one shop, for the file or the enclosing `describe`. */
export function useServiceWithShop(env: TestEnv = {}): Readonly<ServiceWithShop> {
  return suiteFixture(
    'useServiceWithShop',
    async () => {
      const service = await startTestService(settingsOf(env));
      return { service, apiKey: (await service.createShop()).apiKey };
    },
    ({ service }) => service.stop(),
    SERVICE_START_TIMEOUT_MS,
  );
}
