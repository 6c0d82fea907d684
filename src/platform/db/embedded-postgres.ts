import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { lockDataDir, type DataDirOwner } from './data-dir-lock';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * PGlite (the PostgreSQL engine compiled to WebAssembly) served on a loopback port, so the normal
 * PostgreSQL driver path is used unchanged. It runs one query at a time: for local use only. The data
 * directory is locked for this process; the address is published in the lock so that the CLI, run beside
 * a service, works through this process instead of opening the files a second time.
 */
export async function startEmbeddedPostgres(dataDir: string, role: DataDirOwner['role']): Promise<EmbeddedPostgres> {
  const lock = lockDataDir(dataDir, role);
  try {
    const dir = path.join(dataDir, 'pglite');
    fs.mkdirSync(dir, { recursive: true });
    const db = await PGlite.create(dir);
    const port = await freeLoopbackPort();
    const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 20 });
    await server.start();
    const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
    lock.publish(url);
    return {
      url,
      async stop() {
        try {
          await server.stop();
          await db.close();
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

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
