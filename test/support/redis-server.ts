import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './processes';
import { suiteFixture } from './suite-fixture';

/**
 * A Redis server of our own on a free loopback port, with nothing persisted, so a test can stop and
 * restart it without touching the shared one on 6379.
 */
export interface OwnRedis {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function ownRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const own: OwnRedis = {
    url: `redis://127.0.0.1:${port}`,
    start: () =>
      new Promise((resolve, reject) => {
        const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
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
  await own.start();
  return own;
}

/** A Redis of its own for the file or the enclosing `describe` (suite-fixture.ts), killed after it. */
export function useOwnRedis(): Readonly<OwnRedis> {
  return suiteFixture('useOwnRedis', ownRedis, (own) => own.stop());
}
