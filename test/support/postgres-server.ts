import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './processes';
import { suiteFixture } from './suite-fixture';

/**
 * A PostgreSQL server of our own (initdb into a temporary folder, a free loopback port), so a fault
 * test can stop and restart it without touching the shared server the other tests use.
 */
export interface OwnPostgres {
  url: string;
  start(): void;
  stop(mode?: 'fast' | 'immediate'): void;
  remove(): void;
}

const BIN = path.join('/usr/lib/postgresql', fs.readdirSync('/usr/lib/postgresql')[0], 'bin');
const asRoot = process.getuid?.() === 0;

/** PostgreSQL refuses to run as root: as root, run its tools as the `postgres` user. */
function run(tool: string, args: string[]): void {
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(BIN, tool), ...args]] : [path.join(BIN, tool), args];
  execFileSync(command, argv, { stdio: 'pipe', timeout: 60_000 });
}

export async function ownPostgres(): Promise<OwnPostgres> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payments-pg-'));
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  run('initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const own: OwnPostgres = {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    start: () => run('pg_ctl', ['-D', dir, '-o', options, '-l', path.join(dir, 'server.log'), '-w', 'start']),
    stop: (mode = 'fast') => run('pg_ctl', ['-D', dir, '-m', mode, '-w', 'stop']),
    remove: () => {
      try {
        own.stop('immediate');
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  own.start();
  return own;
}

/** A PostgreSQL of its own for the file or the enclosing `describe` (suite-fixture.ts), removed after it. */
export function useOwnPostgres(): Readonly<OwnPostgres> {
  return suiteFixture('useOwnPostgres', ownPostgres, async (own) => own.remove());
}
