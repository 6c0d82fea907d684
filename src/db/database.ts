import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import type { Logger } from 'pino';
import { ormConfig } from '../../mikro-orm.config';
import type { Config } from '../shared/config';
import { startEmbeddedPostgres } from './embedded-postgres';

export interface Database {
  orm: MikroORM;
  embedded: boolean;
  close(): Promise<void>;
}

/** Connects to DATABASE_URL, or to the embedded PostgreSQL when it is unset, and applies pending migrations. */
export async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  const embedded = config.databaseUrl ? null : await startEmbeddedPostgres(config.dataDir);
  if (embedded) {
    logger.warn({ dataDir: config.dataDir }, 'DATABASE_URL is not set: using the embedded PostgreSQL (PGlite). For one instance and local use only.');
  }
  const orm = await MikroORM.init(ormConfig(embedded?.url ?? config.databaseUrl!, config.databasePoolSize));
  await migrate(orm, embedded?.url ?? config.databaseUrl!, logger);
  return {
    orm,
    embedded: embedded !== null,
    async close() {
      await orm.close();
      await embedded?.stop();
    },
  };
}

/** Any number to name the lock; only this service takes it. */
const MIGRATION_LOCK = 746_211_903;

/**
 * Applies pending migrations while holding a session advisory lock, so instances (or test workers)
 * starting together take turns instead of racing to create the same tables.
 */
async function migrate(orm: MikroORM, url: string, logger: Logger): Promise<void> {
  const lock = new Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = await orm.getMigrator().up();
    if (applied.length > 0) logger.info({ migrations: applied.map((m) => m.name) }, 'applied database migrations');
  } finally {
    await lock.end();
  }
}
