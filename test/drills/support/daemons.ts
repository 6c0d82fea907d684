import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The drills start real servers (etcd, Patroni, PostgreSQL, HAProxy, Redis, the service). Each is a child
 * registered here, so one call stops them all, also when the drill fails half-way or is interrupted.
 */
export interface Daemon {
  name: string;
  child: ChildProcess;
  /** Everything it printed, also kept in `<workDir>/<name>.log` for a failed drill's post-mortem. */
  output(): string;
  exited(): boolean;
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

/** In start order: stopped in reverse, so a server goes before what it depends on (Patroni before etcd). */
const running = new Set<Daemon>();

/** The folder holding package.json, whether a drill runs compiled (dist/test/drills) or from its source. */
function repositoryRoot(dir: string): string {
  while (!existsSync(path.join(dir, 'package.json'))) {
    if (path.dirname(dir) === dir) throw new Error('no package.json above the drill');
    dir = path.dirname(dir);
  }
  return dir;
}

export const REPOSITORY_ROOT = repositoryRoot(__dirname);
const cleanups: (() => void)[] = [];

/** PostgreSQL (and Patroni, which runs it) refuse root: as root they run as the `postgres` user. */
export const AS_ROOT = process.getuid?.() === 0;

export function postgresUser(): { uid: number; gid: number } | undefined {
  if (!AS_ROOT) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

/** A folder of its own for one drill, removed at the end unless DRILL_KEEP=1 (for a post-mortem). */
export function workDir(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `drill-${name}-`));
  chmodSync(dir, 0o755);
  onCleanup(() => {
    if (process.env.DRILL_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** A sub-folder the `postgres` user owns (data directories, Patroni's and pgBackRest's files). */
export function postgresDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const user = postgresUser();
  if (user) chownSync(dir, user.uid, user.gid);
  return dir;
}

export function onCleanup(step: () => void): void {
  cleanups.push(step);
}

export interface DaemonOptions {
  logDir: string;
  env?: Record<string, string | undefined>;
  /** Run as the `postgres` user when we are root. */
  asPostgres?: boolean;
  /** Printed when it is ready to serve; `start` waits for it. */
  ready?: RegExp;
  readyTimeoutMs?: number;
}

export async function startDaemon(name: string, command: string, args: string[], options: DaemonOptions): Promise<Daemon> {
  const user = options.asPostgres ? postgresUser() : undefined;
  // A process group of its own, so a stop also reaches what it started (Patroni's postmaster).
  const child = spawn(command, args, {
    // The drill's own folder: the repository may be a checkout only root can enter (a mktemp clone is 0700), and
    // the postgres user's initdb and Patroni's workers change to their working directory first.
    cwd: options.logDir,
    env: { PATH: process.env.PATH, HOME: user ? tmpdir() : process.env.HOME, LANG: 'C.UTF-8', ...options.env } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    ...(user ?? {}),
  });
  const log = createWriteStream(path.join(options.logDir, `${name}.log`));
  let seen = '';
  const keep = (chunk: Buffer) => {
    seen += chunk;
    if (seen.length > 2_000_000) seen = seen.slice(-1_000_000);
    log.write(chunk);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exitCode: number | null | undefined;
  const exit = new Promise<void>((resolve) => child.on('exit', (code) => ((exitCode = code), log.end(), resolve())));
  const daemon: Daemon = {
    name,
    child,
    output: () => seen,
    exited: () => exitCode !== undefined,
    async stop(signal = 'SIGTERM', graceMs = 10_000) {
      running.delete(daemon);
      if (exitCode !== undefined) return;
      signalGroup(child, signal);
      const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
      await exit;
      clearTimeout(timer);
    },
  };
  running.add(daemon);
  if (options.ready) await waitForOutput(daemon, options.ready, options.readyTimeoutMs ?? 30_000, () => exitCode);
  return daemon;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

async function waitForOutput(daemon: Daemon, pattern: RegExp, timeoutMs: number, exitCode: () => number | null | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(daemon.output())) {
    if (exitCode() !== undefined) throw new Error(`${daemon.name} exited with ${exitCode()} before it was ready:\n${daemon.output().slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`${daemon.name} was not ready within ${timeoutMs} ms:\n${daemon.output().slice(-3000)}`);
    await sleep(50);
  }
}

/** Stops every daemon still running (SIGTERM, then SIGKILL), then runs the cleanup steps, newest first. */
export async function stopEverything(): Promise<void> {
  for (const daemon of [...running].reverse()) await daemon.stop('SIGTERM', 8000);
  for (const step of cleanups.splice(0).reverse()) {
    try {
      step();
    } catch {
      // best effort: the next step still runs
    }
  }
}

/** Ctrl-C or a CI time-out must not leave servers behind on the machine. */
export function stopEverythingOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void stopEverything().finally(() => process.exit(130));
    });
  }
}

/**
 * A postmaster left behind (its Patroni was killed, or the drill was interrupted) is stopped by its pid, once
 * its command line shows it serves `dataDir`, so a reused pid is never signalled.
 */
export function killPostmasterOf(dataDir: string): void {
  const pid = postmasterPid(dataDir);
  if (!pid) return;
  try {
    if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dataDir)) process.kill(pid, 'SIGKILL');
  } catch {
    // not running
  }
}

/** The first line of postmaster.pid: the postmaster's process id. */
export function postmasterPid(dataDir: string): number | null {
  try {
    return Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]) || null;
  } catch {
    return null;
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it answers something truthy; throws naming `what` after `timeoutMs`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 30_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}
