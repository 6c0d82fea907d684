import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { freePort } from './processes';
import { suiteFixture } from './suite-fixture';

/**
 * A Redis server of our own on a free loopback port, with nothing persisted, so a test can stop and
 * restart it without touching the shared one on 6379.
 */
export interface OwnRedis {
  url: string;
  /** Starts it again: empty, or holding from its first answer what the snapshot in `snapshotDir` holds (redisSnapshot). */
  start(snapshotDir?: string): Promise<void>;
  stop(): Promise<void>;
}

/** Started empty, or from the snapshot in `snapshotDir`, where its SAVE writes too. */
export async function ownRedis(snapshotDir?: string): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const own: OwnRedis = {
    url: `redis://127.0.0.1:${port}`,
    start: (snapshotDir) =>
      new Promise((resolve, reject) => {
        const snapshot = snapshotDir ? ['--dir', snapshotDir, '--dbfilename', 'dump.rdb'] : [];
        const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...snapshot], { stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
        started.stdout!.on('data', (chunk) => {
          output += chunk;
          if (/Ready to accept connections/.test(output)) {
            clearTimeout(timer);
            child = started;
            resolve();
          }
        });
        started.on('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
      }),
    stop: () =>
      new Promise((resolve) => {
        if (!child || child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
        child = null;
      }),
  };
  await own.start(snapshotDir);
  return own;
}

/** A Redis of its own for the file or the enclosing `describe` (suite-fixture.ts), killed after it. */
export function useOwnRedis(): Readonly<OwnRedis> {
  return suiteFixture('useOwnRedis', ownRedis, (own) => own.stop());
}

/**
 * A directory holding a Redis snapshot of what `write` put into an empty Redis, for `OwnRedis.start`: a state
 * a server can be found in after a failure, such as a job that no worker holds left in bull's active list.
 */
export async function redisSnapshot(write: (client: Redis) => Promise<unknown>): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redis-snapshot-'));
  const scratch = await ownRedis(dir);
  const client = new Redis(scratch.url);
  try {
    await write(client);
    await client.save();
  } finally {
    client.disconnect();
    await scratch.stop();
  }
  return dir;
}
