import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { liveOwner } from '../../src/platform/db/data-dir-lock';
import { PROJECT_ROOT as ROOT } from '../../src/shared/project-root';
import { freePort } from '../support/processes';

/**
 * `npm run bench:startup`: what a newcomer waits for, through npm exactly as the README says:
 *   - `npm start` on a fresh clone of the committed tree (its node_modules linked to this one's: the install is not
 *     timed), which builds, then creates the embedded database;
 * then on this built tree (the build stamp matches, so scripts/run-built.mjs only reads the inputs' sizes and times):
 *   - `npm start` on the embedded database until "payment service listening" (a first start creates the
 *     database; later starts reopen it), then `npm start` with DATABASE_URL when BENCH_DATABASE_URL is set;
 *   - `npm run -s cli -- create-shop` beside the running embedded service, and `npm run -s cli -- check-ledger`
 *     against it; each until the process exits.
 * Prints the median and the worst of ROUNDS runs, and for each start the median of its steps as the service logs them
 * (`startupMs` of "payment service listening": modules loaded, schema built, database open, listening, in ms from the
 * process's start; the embedded database starts in its own thread while the modules load).
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

async function main() {
  await freshCloneStart();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payments-startup-bench-'));
  try {
    const first = await timedStart({ DATA_DIR: dataDir });
    await stop(first.child, dataDir);
    report('npm start, embedded, first start (creates the database)', [first.ms]);
    reportSteps([first.steps]);
    const later: Started[] = [];
    report('npm start, embedded, later starts', await repeat(async () => {
      const started = await timedStart({ DATA_DIR: dataDir });
      await stop(started.child, dataDir);
      later.push(started);
      return started.ms;
    }));
    reportSteps(later.map((started) => started.steps));
    if (process.env.BENCH_DATABASE_URL) {
      const onPostgres: Started[] = [];
      report('npm start, DATABASE_URL (PostgreSQL)', await repeat(async () => {
        const started = await timedStart({ DATABASE_URL: process.env.BENCH_DATABASE_URL! });
        await stop(started.child);
        onPostgres.push(started);
        return started.ms;
      }));
      reportSteps(onPostgres.map((started) => started.steps));
    }
    const service = await timedStart({ DATA_DIR: dataDir });
    let n = 0;
    report('npm run -s cli -- create-shop, beside the embedded service', await repeat(() => timedCli(['create-shop', '--email', `bench-${Date.now()}-${n++}@shop.example`, '--name', 'Bench'], dataDir)));
    report('npm run -s cli -- check-ledger, beside the embedded service', await repeat(() => timedCli(['check-ledger'], dataDir)));
    await stop(service.child, dataDir);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `npm start` in a fresh clone: the build, then a first start. */
async function freshCloneStart(): Promise<void> {
  const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'payments-fresh-clone-'));
  try {
    execFileSync('git', ['clone', '-q', ROOT, clone]);
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'));
    const started = await timedStart({ DATA_DIR: path.join(clone, 'data') }, clone);
    await stop(started.child, path.join(clone, 'data'));
    report('npm start on a fresh clone (builds, creates the database)', [started.ms]);
  } finally {
    fs.rmSync(clone, { recursive: true, force: true });
  }
}

async function repeat(run: () => Promise<number>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) times.push(await run());
  return times;
}

function report(name: string, ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  process.stdout.write(`${name.padEnd(62)} median ${(median / 1000).toFixed(2)} s, worst ${(sorted[sorted.length - 1] / 1000).toFixed(2)} s (${ms.length} runs)\n`);
}

/** The median of each step the service logged, in ms from the node process's start. */
function reportSteps(runs: Record<string, number>[]) {
  const names = Object.keys(runs[0] ?? {});
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const steps = names.map((name) => `${name} ${(median(runs.map((steps) => steps[name] ?? NaN)) / 1000).toFixed(2)} s`);
  process.stdout.write(`${'  steps (median, from node\'s start)'.padEnd(62)} ${steps.join(', ')}\n`);
}

interface Started {
  ms: number;
  child: ChildProcess;
  steps: Record<string, number>;
}

async function timedStart(env: Record<string, string>, cwd = ROOT): Promise<Started> {
  const port = await freePort();
  const began = performance.now();
  const child = npm(['start'], { ...env, PORT: String(port) }, cwd);
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      seen += chunk;
      if (/payment service listening.*\n/.test(seen)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code}: ${seen}`)));
  });
  const listening = seen.split('\n').find((line) => line.includes('payment service listening'))!;
  return { ms: performance.now() - began, child, steps: (JSON.parse(listening) as { startupMs: Record<string, number> }).startupMs };
}

async function timedCli(args: string[], dataDir: string): Promise<number> {
  const began = performance.now();
  const child = npm(['run', '-s', 'cli', '--', ...args], { DATA_DIR: dataDir });
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0 || out.trim().split('\n').length !== 1) throw new Error(`cli ${args[0]} exited with ${code}: ${out}`);
  return performance.now() - began;
}

/** npm in its own process group, so stopping it stops the node process it started. */
function npm(args: string[], env: Record<string, string>, cwd = ROOT): ChildProcess {
  return spawn('npm', args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, LOG_FORMAT: 'json', LOG_LEVEL: 'info', ...env } });
}

/** Stops npm and the service, and waits until the service process is gone (its lock then counts as free). */
async function stop(child: ChildProcess, dataDir?: string): Promise<void> {
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    process.kill(-child.pid!, 'SIGTERM');
  });
  while (dataDir && liveOwner(dataDir)) await new Promise((resolve) => setTimeout(resolve, 50));
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
