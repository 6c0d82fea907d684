import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { lockDataDir, type DataDirOwner } from './data-dir-lock';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * PGlite (the PostgreSQL engine compiled to WebAssembly) served on a loopback port, so the normal
 * PostgreSQL driver path is used unchanged. It runs one session at a time (embedded-sessions.ts): for local use only.
 * It runs in a worker thread (embedded-worker.ts): its start (a second of WebAssembly on a small machine) overlaps the
 * service's own start, and its queries run beside the service's JavaScript. The data directory is locked for this
 * process; the address is published in the lock so that the CLI, run beside a service, works through this process
 * instead of opening the files a second time.
 */
export function startEmbeddedPostgres(dataDir: string, role: DataDirOwner['role']): Promise<EmbeddedPostgres> {
  const early = startedEarly.get(dataDir);
  startedEarly.delete(dataDir);
  return early ?? start(dataDir, role);
}

const startedEarly = new Map<string, Promise<EmbeddedPostgres>>();

/**
 * Begins the service's start of the embedded database before the rest of the service has loaded; the
 * `startEmbeddedPostgres` that follows takes it over, and meets any failure (a data directory in use) there.
 */
export function startEmbeddedPostgresEarly(dataDir: string): void {
  const starting = start(dataDir, 'service');
  starting.catch(() => undefined);
  startedEarly.set(dataDir, starting);
}

async function start(dataDir: string, role: DataDirOwner['role']): Promise<EmbeddedPostgres> {
  const lock = lockDataDir(dataDir, role);
  try {
    const dir = path.join(dataDir, 'pglite');
    fs.mkdirSync(dir, { recursive: true });
    const worker = startWorker(dir);
    const port = await served(worker);
    const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
    lock.publish(url);
    return {
      url,
      async stop() {
        try {
          await stopped(worker);
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/**
 * The built worker beside this file; from the TypeScript sources (the tests) it is bundled on the fly by esbuild,
 * a development dependency, since a worker thread loads plain JavaScript only.
 */
function startWorker(dir: string): Worker {
  const built = path.join(__dirname, 'embedded-worker.js');
  if (fs.existsSync(built)) return new Worker(built, { workerData: { dir } });
  const esbuild = require('esbuild') as typeof import('esbuild');
  const bundle = esbuild.buildSync({
    entryPoints: [path.join(__dirname, 'embedded-worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    external: ['@electric-sql/pglite'],
  });
  return new Worker(bundle.outputFiles[0].text, { eval: true, workerData: { dir } });
}

function served(worker: Worker): Promise<number> {
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      void worker.terminate();
      reject(error);
    };
    worker.once('error', fail);
    worker.once('exit', (code) => fail(new Error(`the embedded database stopped while starting (exit code ${code})`)));
    worker.once('message', (message: { port?: number; error?: { message: string; stack?: string } }) => {
      worker.removeAllListeners('exit');
      worker.removeAllListeners('error');
      if (message.port) return resolve(message.port);
      fail(Object.assign(new Error(message.error?.message ?? 'the embedded database did not start'), { stack: message.error?.stack }));
    });
  });
}

function stopped(worker: Worker): Promise<void> {
  if (worker.threadId === -1) return Promise.resolve(); // already gone
  return new Promise((resolve) => {
    worker.once('exit', () => resolve());
    worker.once('message', (message) => {
      if (message === 'stopped') void worker.terminate();
    });
    worker.postMessage('stop');
  });
}
