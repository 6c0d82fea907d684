import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { serveEmbeddedSessions } from './embedded-sessions';

/**
 * The embedded PostgreSQL's thread (embedded-postgres.ts): PGlite and its loopback server run here, so starting the
 * engine and running its queries never hold up the service's own event loop.
 * Messages: to the service `{ port }` once serving, or `{ error }`; from it `'stop'`, answered by `'stopped'`.
 */
async function serve(dir: string): Promise<void> {
  const db = await PGlite.create(dir);
  const server = await serveEmbeddedSessions(db);
  parentPort!.on('message', async (message) => {
    if (message !== 'stop') return;
    await server.close();
    await db.close();
    parentPort!.postMessage('stopped');
    parentPort!.close();
  });
  parentPort!.postMessage({ port: server.port });
}

serve((workerData as { dir: string }).dir).catch((error: Error) => {
  parentPort!.postMessage({ error: { message: error.message, stack: error.stack } });
});
