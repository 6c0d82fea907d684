import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * PGlite (the PostgreSQL engine compiled to WebAssembly) served on a loopback port, so the normal
 * PostgreSQL driver path is used unchanged. It runs one query at a time: for local use only.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const dir = path.join(dataDir, 'pglite');
  fs.mkdirSync(dir, { recursive: true });
  const db = await PGlite.create(dir);
  const port = await freeLoopbackPort();
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 20 });
  await server.start();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
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
