import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { PROJECT_ROOT as ROOT } from '../../src/shared/project-root';

/** The benchmarks' child processes: the built service, the CLI and the baseline, each a real process of its own. */
export function runToEnd(script: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, script), ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${script} exited ${code}`))));
  });
}

/** The benchmarks' BASE_URL is not localhost, where the service refuses to start without a statement signing key. */
export const BENCH_STATEMENT_KEY = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

/**
 * `cpus` (a taskset list such as "1" or "1-3"): the process and its children run only on those cores.
 * `nodeArgs`: flags for node itself (`--cpu-prof` is refused in NODE_OPTIONS).
 */
export function startChild(script: string, args: string[], env: Record<string, string>, ready: RegExp, cpus?: string, nodeArgs: string[] = []): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const command = [process.execPath, ...nodeArgs, path.join(ROOT, script), ...args];
    const pinned = cpus ? ['taskset', '-c', cpus, ...command] : command;
    const child = spawn(pinned[0], pinned.slice(1), { cwd: ROOT, env: { STATEMENT_SIGNING_KEY: BENCH_STATEMENT_KEY, ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let seen = '';
    const onData = (d: Buffer) => {
      seen += d;
      if (!ready.test(seen)) return;
      // From now on stdout (the service's log lines) flows with no listener: drained, not kept.
      child.stdout!.off('data', onData);
      child.stdout!.resume();
      resolve(child);
    };
    child.stdout!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${script} exited ${code} before it was ready:\n${seen.slice(-2000)}`)));
  });
}

/** Runs one statement as the administrator (creating and dropping the benchmark's own database). */
async function adminSql(postgresUrl: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export const BENCH_POSTGRES = process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const BENCH_REDIS = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A database of the benchmark's own (`<prefix>_<random>`) for the length of `run`, dropped afterwards whatever happens. */
export async function withBenchDatabase<T>(prefix: string, run: (databaseUrl: string) => Promise<T>): Promise<T> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await adminSql(BENCH_POSTGRES, `create database "${name}"`);
  try {
    return await run(Object.assign(new URL(BENCH_POSTGRES), { pathname: `/${name}` }).toString());
  } finally {
    await adminSql(BENCH_POSTGRES, `drop database if exists "${name}" with (force)`);
  }
}

/** Every per-key and card-testing budget raised, so that no limit caps the load a benchmark measures. */
export const UNCAPPED_LIMITS = {
  RATE_LIMIT_PER_MINUTE: '1000000000',
  CHECKOUT_SUBMISSIONS_PER_CLIENT: '1000000000', CHECKOUT_SUBMISSIONS_PER_SHOP: '1000000000',
  CHECKOUT_DECLINES_PER_CLIENT: '1000000000', CHECKOUT_DECLINES_PER_SHOP: '1000000000',
};
