import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './processes';
import { POSTGRES_ADMIN_URL } from './test-env';

export const PGBOUNCER = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';

export interface OwnPgBouncer {
  /** `databaseUrl` with PgBouncer's address instead of PostgreSQL's. */
  urlFor(databaseUrl: string): string;
  stop(): Promise<void>;
}

/**
 * PgBouncer of our own in transaction mode on a free loopback port, in front of the test PostgreSQL (trust
 * authentication). Few server connections per database, so clients share them and any session state one of
 * them leaves behind (a session lock, a SET) would reach another.
 */
export async function startPgBouncer(serverConnectionsPerDatabase = 3): Promise<OwnPgBouncer> {
  const port = await freePort();
  const postgres = new URL(POSTGRES_ADMIN_URL);
  const dir = mkdtempSync(path.join(tmpdir(), 'pgbouncer-'));
  // PgBouncer refuses to run as root; `-u postgres` drops to that user, which must read these files.
  chmodSync(dir, 0o755);
  const ini = path.join(dir, 'pgbouncer.ini');
  writeFileSync(path.join(dir, 'userlist.txt'), `"${decodeURIComponent(postgres.username)}" ""\n`, { mode: 0o644 });
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${postgres.hostname} port=${postgres.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${serverConnectionsPerDatabase}`,
      'max_client_conn = 500',
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const args = process.getuid?.() === 0 ? ['-u', 'postgres', ini] : [ini];
  const child: ChildProcess = spawn(PGBOUNCER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`pgbouncer did not start:\n${output}`)), 10_000);
    const seen = (chunk: Buffer) => {
      output += chunk;
      if (/listening on 127\.0\.0\.1:\d+/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.on('exit', (code) => reject(new Error(`pgbouncer exited with ${code}:\n${output}`)));
  });
  return {
    urlFor(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    stop: () =>
      new Promise((resolve) => {
        const done = () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGINT');
      }),
  };
}
