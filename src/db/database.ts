import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import type { Logger } from 'pino';
import { ormConfig } from '../../mikro-orm.config';
import type { Config } from '../shared/config';
import { StartupError } from '../shared/startup-error';
import { busyMessage, liveOwner, type DataDirOwner } from './data-dir-lock';
import { startEmbeddedPostgres } from './embedded-postgres';

export interface Database {
  orm: MikroORM;
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * Connects to DATABASE_URL, or to the embedded PostgreSQL when it is unset, and applies pending migrations.
 * `cli`: when a service owns the embedded database, its CLI connects through that service's loopback
 * server (so there is never a second writer, and the service sees the change at once); with no service
 * running, it opens the files itself, holding the same lock.
 */
export async function openDatabase(config: Config, logger: Logger, role: DataDirOwner['role'] = 'service'): Promise<Database> {
  if (config.databaseUrl) return connect(config.databaseUrl, config, logger, { embedded: false });
  const owner = role === 'cli' ? liveOwner(config.dataDir) : undefined;
  if (owner?.role === 'service' && owner.url) {
    logger.info({ dataDir: config.dataDir, ownerPid: owner.pid }, 'using the embedded database of the running service');
    return connect(owner.url, config, logger, { embedded: true });
  }
  if (owner) throw new StartupError(busyMessage(config.dataDir, owner));
  const embedded = await startEmbeddedPostgres(config.dataDir, role);
  logger.warn({ dataDir: config.dataDir }, 'DATABASE_URL is not set: using the embedded PostgreSQL (PGlite). For one instance and local use only.');
  try {
    return await connect(embedded.url, config, logger, { embedded: true, stop: () => embedded.stop() });
  } catch (error) {
    await embedded.stop();
    throw error;
  }
}

async function connect(url: string, config: Config, logger: Logger, how: { embedded: boolean; stop?: () => Promise<void> }): Promise<Database> {
  // MikroORM would create a missing database; only DATABASE_CREATE=1 asks for that (a misspelt name must not start empty).
  const orm = await MikroORM.init({ ...ormConfig(url, config.databasePoolSize, config.databaseStatementTimeoutMs), ensureDatabase: config.databaseCreate });
  try {
    await migrate(orm, url, logger, !how.embedded && config.databaseStatementTimeoutMs > 0);
  } catch (error) {
    await orm.close();
    throw error;
  }
  return {
    orm,
    embedded: how.embedded,
    async close() {
      await orm.close();
      await how.stop?.();
    },
  };
}

/**
 * All migrations in one transaction, free of DATABASE_STATEMENT_TIMEOUT_MS: rewriting a large table may take longer
 * than any request should. Not for the embedded PGlite: it ignores the time-out, and while one connection holds a
 * transaction it makes the others wait, so the migrator's own bookkeeping beside this transaction would deadlock.
 */
async function upWithoutStatementTimeout(orm: MikroORM) {
  return orm.em.fork().transactional(async (tx) => {
    await tx.execute('set local statement_timeout = 0');
    return orm.getMigrator().up({ transaction: tx.getTransactionContext() });
  });
}

/** Any number to name the lock; only this service takes it. */
const MIGRATION_LOCK = 746_211_903;

/**
 * Applies pending migrations while holding a session advisory lock, so instances (or test workers)
 * starting together take turns instead of racing to create the same tables.
 */
async function migrate(orm: MikroORM, url: string, logger: Logger, liftStatementTimeout: boolean): Promise<void> {
  const lock = new Client({ connectionString: url });
  await lock.connect().catch((error: { code?: string }) => {
    throw error.code === '3D000' ? missingDatabase(url) : error;
  });
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = liftStatementTimeout ? await upWithoutStatementTimeout(orm) : await orm.getMigrator().up();
    if (applied.length > 0) logger.info({ migrations: applied.map((m) => m.name) }, 'applied database migrations');
  } finally {
    await lock.end();
  }
}

function missingDatabase(url: string): StartupError {
  const { pathname, host } = new URL(url);
  return new StartupError(
    `The database "${decodeURIComponent(pathname.slice(1))}" does not exist on ${host} (DATABASE_URL). Check the name, create it, or set DATABASE_CREATE=1 to have it created.`,
  );
}
