import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../support/processes';
import { killPostmasterOf, onCleanup, postgresDir, postgresUser, startDaemon, type Daemon } from './daemons';

const PG_BIN = '/usr/lib/postgresql/15/bin';

/** A PostgreSQL tool (initdb, pgbackrest …) run as the `postgres` user when we are root; rejects with its output. */
export function runAsPostgres(command: string, args: string[], timeoutMs = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { ...(postgresUser() ?? {}), cwd: tmpdir(), timeout: timeoutMs, env: { PATH: process.env.PATH, LANG: 'C.UTF-8' }, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${path.basename(command)} ${args.join(' ')} failed: ${error.message}\n${stdout}${stderr}`)) : resolve(stdout),
    );
  });
}

export interface SinglePostgres {
  url(database: string): string;
  port: number;
  dataDir: string;
  socketDir: string;
  daemon: Daemon;
}

/** initdb into `<dir>/<name>/data`, trust on loopback and the socket: what pg_ctlcluster would make, in a temp folder. */
export async function initCluster(dir: string, name: string): Promise<{ home: string; dataDir: string }> {
  const home = postgresDir(path.join(dir, name));
  const dataDir = path.join(home, 'data');
  await runAsPostgres(path.join(PG_BIN, 'initdb'), ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8']);
  return { home, dataDir };
}

/**
 * Runs `postgres` in the foreground on a free loopback port (so the drill owns the process), with `settings`
 * as `-c` options. Ready once it accepts connections (after any recovery the data directory asks for).
 */
export async function startPostgres(logDir: string, name: string, home: string, dataDir: string, settings: Record<string, string>, readyTimeoutMs = 120_000): Promise<SinglePostgres> {
  const port = await freePort();
  const options = { listen_addresses: '127.0.0.1', port: String(port), unix_socket_directories: home, ...settings };
  onCleanup(() => killPostmasterOf(dataDir));
  const daemon = await startDaemon(name, path.join(PG_BIN, 'postgres'), ['-D', dataDir, ...Object.entries(options).flatMap(([k, v]) => ['-c', `${k}=${v}`])], {
    logDir,
    asPostgres: true,
    ready: /database system is ready to accept connections/,
    readyTimeoutMs,
  });
  return { url: (database) => `postgresql://postgres@127.0.0.1:${port}/${database}`, port, dataDir, socketDir: home, daemon };
}

export function writeReadable(file: string, text: string): void {
  writeFileSync(file, text, { mode: 0o644 });
}
