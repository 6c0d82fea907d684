import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { lockDataDir, type DataDirOwner } from './data-dir-lock';
import { serveEmbeddedSessions } from './embedded-sessions';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * PGlite (the PostgreSQL engine compiled to WebAssembly) served on a loopback port, so the normal
 * PostgreSQL driver path is used unchanged. It runs one session at a time (embedded-sessions.ts): for local use only. The data
 * directory is locked for this process; the address is published in the lock so that the CLI, run beside
 * a service, works through this process instead of opening the files a second time.
 */
export async function startEmbeddedPostgres(dataDir: string, role: DataDirOwner['role']): Promise<EmbeddedPostgres> {
  const lock = lockDataDir(dataDir, role);
  try {
    const dir = path.join(dataDir, 'pglite');
    fs.mkdirSync(dir, { recursive: true });
    const db = await PGlite.create(dir);
    const server = await serveEmbeddedSessions(db);
    const url = `postgresql://postgres@127.0.0.1:${server.port}/postgres`;
    lock.publish(url);
    return {
      url,
      async stop() {
        try {
          await server.close();
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
