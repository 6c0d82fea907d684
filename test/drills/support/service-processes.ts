import { execFile } from 'node:child_process';
import path from 'node:path';
import { seedPayoutAccount } from '../../support/ledger-seed';
import { freePort } from '../../support/processes';
import { REPOSITORY_ROOT, startDaemon, type Daemon } from './daemons';

/**
 * The built service (dist/src/apps/main.js) and the worker (dist/src/apps/worker.js) as the processes production runs,
 * with the settings a drill needs: loopback webhooks, short schedules, limits high enough that the drill's
 * own load is never refused by them. Webhooks are delivered by the worker only, refunds by the service.
 */
export interface ServiceProcesses {
  baseUrl: string;
  service: Daemon;
  worker: Daemon;
  /** Process ids at start: a drill proves it never restarted them. */
  pids: { service: number; worker: number };
  env: Record<string, string>;
}

/**
 * `redisUrl` undefined: limits and queues in the process (one service, as the restore drill runs). `dataDir`: the
 * drill's own, for what the processes keep on disk (a development signing key), never the repository's `.data`.
 */
export function drillEnv(dataDir: string, databaseUrl: string, redisUrl: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    DATABASE_CREATE: '1',
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    REDIS_KEY_PREFIX: 'drill:',
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'info',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1',
    WEBHOOK_WORKERS_IN_SERVICE: '0',
    WEBHOOK_POLL_INTERVAL_MS: '200',
    WEBHOOK_RETRY_BASE_DELAY_MS: '500',
    WEBHOOK_TIMEOUT_MS: '3000',
    REFUND_SWEEP_INTERVAL_MS: '1000',
    RECONCILE_AFTER_MS: '2000',
    RECONCILE_INTERVAL_MS: '1000',
    RATE_LIMIT_PER_MINUTE: '1000000',
    GRAPHQL_COST_PER_MINUTE: '100000000',
    GRAPHQL_REQUESTS_PER_KEY: '50',
    CHECKOUT_SUBMISSIONS_PER_CLIENT: '1000000',
    CHECKOUT_SUBMISSIONS_PER_SHOP: '1000000',
    LEDGER_CHECK_INTERVAL_MS: '0',
    ...extra,
  };
}

const node = (script: string) => [path.join(REPOSITORY_ROOT, 'dist/src/apps', script)];

function runNode(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [...node(script), ...args], { cwd: REPOSITORY_ROOT, env: { PATH: process.env.PATH, ...env }, maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

/** Starts the service first (it creates the database and migrates it), then the worker. */
export async function startServiceProcesses(logDir: string, env: Record<string, string>, logSuffix = ''): Promise<ServiceProcesses> {
  const { baseUrl, service } = await startService(logDir, env, logSuffix);
  const worker = await startDaemon(`worker${logSuffix}`, process.execPath, node('worker.js'), { logDir, env, ready: /webhook worker started/, readyTimeoutMs: 60_000 });
  return { baseUrl, service, worker, pids: { service: service.child.pid!, worker: worker.child.pid! }, env };
}

export async function startService(logDir: string, env: Record<string, string>, logSuffix = ''): Promise<{ baseUrl: string; service: Daemon }> {
  const port = await freePort();
  const service = await startDaemon(`service${logSuffix}`, process.execPath, node('main.js'), {
    logDir,
    env: { ...env, PORT: String(port) },
    ready: /payment service listening/,
    readyTimeoutMs: 90_000,
  });
  return { baseUrl: `http://127.0.0.1:${port}`, service };
}

/** `npm run cli -- <args>` against the drill's database; answers its JSON line and exit code. */
export async function cli<T = Record<string, unknown>>(env: Record<string, string>, args: string[]): Promise<{ code: number | null; result: T; stderr: string }> {
  const { code, stdout, stderr } = await runNode('cli.js', args, { ...env, LOG_LEVEL: 'warn' });
  let result: T;
  try {
    result = JSON.parse(stdout) as T;
  } catch {
    throw new Error(`cli ${args.join(' ')} exited ${code} without a JSON line:\n${stdout}\n${stderr}`);
  }
  return { code, result, stderr };
}

export interface DrillActors {
  apiKey: string;
  shopId: string;
  /** Support records refund requests, finance decides: two admins, as four eyes require. */
  supportToken: string;
  financeToken: string;
}

/**
 * A shop whose webhooks go to `webhookUrl` and whose seller has a payout account (withdrawals need one), and the two
 * admins refunds and withdrawals need, made by the CLI.
 */
export async function provisionActors(env: Record<string, string>, webhookUrl: string): Promise<DrillActors> {
  const tag = Date.now().toString(36);
  const shop = await cli<{ api_key: string; shop_id: string }>(env, ['create-shop', '--email', `drill-${tag}@shop.example`, '--name', 'Drill shop', '--webhook-url', webhookUrl]);
  await seedPayoutAccount(env.DATABASE_URL, shop.result.shop_id);
  const support = await cli<{ token: string }>(env, ['create-admin', '--email', `support-${tag}@payments.example`, '--role', 'support']);
  const finance = await cli<{ token: string }>(env, ['create-admin', '--email', `finance-${tag}@payments.example`, '--role', 'finance']);
  return { apiKey: shop.result.api_key, shopId: shop.result.shop_id, supportToken: support.result.token, financeToken: finance.result.token };
}

/** `check-ledger` as operators run it: clean means exit 0 and no violation. */
export async function checkLedger(env: Record<string, string>): Promise<{ clean: boolean; violations: unknown[] }> {
  const { code, result } = await cli<{ violations: unknown[] }>(env, ['check-ledger']);
  return { clean: code === 0 && result.violations.length === 0, violations: result.violations };
}

export { freePort };
