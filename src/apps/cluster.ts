import cluster from 'node:cluster';
import type { Config } from '../shared/config';
import { openDatabase } from '../platform/db/database';
import type { Logger } from '../shared/logger';
import { ENTITIES } from './entities';

/**
 * WEB_CONCURRENCY > 1: this process migrates the database once, then forks that many service
 * processes sharing one port (Node's cluster module balances connections between them). Everything
 * they share lives in PostgreSQL and Redis, so they behave as one service. A process that dies is
 * replaced; SIGTERM is passed on and waited for.
 */
export async function runClusterPrimary(config: Config, logger: Logger): Promise<void> {
  const database = await openDatabase(config, logger, ENTITIES);
  await database.close();
  let stopping = false;
  const fork = () => cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    logger.error({ pid: worker.process.pid, code, signal }, 'service process died: starting another');
    setTimeout(fork, 1000);
  });
  for (let i = 0; i < config.webConcurrency; i++) fork();
  logger.info({ processes: config.webConcurrency, port: config.port }, 'cluster started');

  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {});
    let running = workers.length;
    for (const worker of workers) {
      worker?.once('exit', () => --running === 0 && logger.flush(() => process.exit(0)));
      worker?.process.kill(signal);
    }
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

export const isClusterPrimary = (config: Config) => config.webConcurrency > 1 && cluster.isPrimary;
