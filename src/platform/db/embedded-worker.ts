import { setFlagsFromString } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { serveEmbeddedSessions } from './embedded-sessions';

/**
 * The embedded PostgreSQL's thread (embedded-postgres.ts): PGlite and its loopback server run here, so starting the
 * engine and running its queries never hold up the service's own event loop.
 * Messages: to the service `{ port }` once serving, or `{ error }`; from it `'stop'`, answered by `'stopped'`.
 */
async function serve(dir: string): Promise<void> {
  // PGlite is the process's only WebAssembly. V8's optimising tier would recompile its hot functions as the engine
  // starts and block this thread for a quarter of a second meanwhile; the baseline code alone starts the engine a
  // tenth faster and runs queries about a tenth slower, which suits a database for local use
  // (docs/decisions/0027-starts.md). Read when the module is compiled, so it is set before.
  setFlagsFromString('--liftoff-only');
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
