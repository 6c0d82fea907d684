import type { IMigrator } from '@mikro-orm/core';
import { type EntityManager, MikroORM, type Options } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import type { Logger } from 'pino';
import { ormConfig, type EntityList } from './orm-config';
import { sendUnnamedStatements } from './pooled-query';
import type { Config } from '../../shared/config';
import { StartupError } from '../../shared/startup-error';
import { busyMessage, liveOwner, type DataDirOwner } from './data-dir-lock';
import { enableAsyncContextOnlyWhileRunning } from '../../shared/async-context';
import { loadMigrations, MIGRATION_NAMES } from './migrations';

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
/** One round trip to PostgreSQL on a pooled connection: the readiness probe's check of the database. */
export async function pingDatabase(orm: MikroORM): Promise<void> {
  await orm.em.getConnection().execute('select 1');
}

export async function openDatabase(config: Config, logger: Logger, entities: EntityList, role: DataDirOwner['role'] = 'service'): Promise<Database> {
  // MikroORM's flushes and transactions would otherwise leave Node's promise hook on for every request.
  enableAsyncContextOnlyWhileRunning();
  if (config.databaseUrl) return connect(config.databaseUrl, config, logger, entities, { embedded: false });
  const owner = role === 'cli' ? liveOwner(config.dataDir) : undefined;
  if (owner?.role === 'service' && owner.url) {
    logger.info({ dataDir: config.dataDir, ownerPid: owner.pid }, 'using the embedded database of the running service');
    return connect(owner.url, config, logger, entities, { embedded: true });
  }
  if (owner) throw new StartupError(busyMessage(config.dataDir, owner));
  // PGlite (half a megabyte of JavaScript and its WebAssembly) is loaded only when the embedded database is used.
  const { startEmbeddedPostgres } = require('./embedded-postgres') as typeof import('./embedded-postgres');
  const starting = startEmbeddedPostgres(config.dataDir, role);
  // The engine starts in its own thread (most of an embedded start); meanwhile this one builds the ORM.
  let orm: MikroORM;
  try {
    orm = ormAwaitingAddress(entities, config);
  } catch (error) {
    await (await starting.catch(() => undefined))?.stop();
    throw error;
  }
  const embedded = await starting;
  logger.warn({ dataDir: config.dataDir }, 'DATABASE_URL is not set: using the embedded PostgreSQL (PGlite). For one instance and local use only.');
  try {
    await connectTo(orm, embedded.url);
    return await opened(orm, embedded.url, config, logger, entities, { embedded: true, stop: () => embedded.stop() });
  } catch (error) {
    await embedded.stop();
    throw error;
  }
}

/**
 * The embedded engine's address is known only once it serves, so its ORM is built (its entities discovered)
 * before, on an address that resolves nowhere, and given the real one as it connects (`connectTo`).
 */
function ormAwaitingAddress(entities: EntityList, config: Config): MikroORM {
  const settings = ormConfig(entities, 'postgresql://postgres@address-not-yet-known.invalid/postgres', config.databasePoolSize, statementTimeout(config));
  // The engine's own database always exists.
  return MikroORM.initSync({ ...settings, ensureDatabase: false });
}

/** The address overrides the configured one in the driver's connection settings, which are read as it connects. */
async function connectTo(orm: MikroORM, url: string): Promise<void> {
  const { hostname, port, username, pathname } = new URL(url);
  const driverOptions = orm.config.get('driverOptions') as { connection?: Record<string, unknown> };
  const address = { host: hostname, port: Number(port), user: decodeURIComponent(username), database: decodeURIComponent(pathname.slice(1)) };
  orm.config.set('driverOptions', { ...driverOptions, connection: { ...driverOptions.connection, ...address } });
  await orm.connect();
}

async function connect(url: string, config: Config, logger: Logger, entities: EntityList, how: { embedded: boolean }): Promise<Database> {
  // MikroORM would create a missing database; only DATABASE_CREATE=1 asks for that (a misspelt name must not start empty).
  const orm = await MikroORM.init({ ...ormConfig(entities, url, config.databasePoolSize, statementTimeout(config)), ensureDatabase: config.databaseCreate });
  return opened(orm, url, config, logger, entities, how);
}

/**
 * Behind PgBouncer in transaction mode a connection-level setting would be refused by PgBouncer (a startup
 * parameter) or leak to whichever client gets the server connection next: the timeout is the role's then.
 */
function statementTimeout(config: Config): number {
  return config.databasePooler === 'pgbouncer-transaction' ? 0 : config.databaseStatementTimeoutMs;
}

/** A connected ORM, migrated. */
async function opened(orm: MikroORM, url: string, config: Config, logger: Logger, entities: EntityList, how: { embedded: boolean; stop?: () => Promise<void> }): Promise<Database> {
  const pooled = config.databasePooler === 'pgbouncer-transaction';
  // A named statement is a session's: behind the pooler the next statement may run on another server connection, and
  // the embedded database's connections share one session (embedded-sessions.ts), where each would prepare it again.
  if (pooled || how.embedded) sendUnnamedStatements(orm.em);
  try {
    if (await migrationsPending(orm)) {
      if (how.embedded) await migrateEmbedded(orm, url, logger);
      else await migrateOnOwnConnections(url, entities, logger);
    }
    if (pooled && config.databaseStatementTimeoutMs > 0) await warnWithoutRoleTimeout(orm, logger);
  } catch (error) {
    await orm.close();
    throw (error as { code?: string }).code === '3D000' ? missingDatabase(url) : error;
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
 * Whether a migration is missing from the migrator's table (or the table itself): one read, so a start on an
 * up-to-date database never loads the migrator. The migrator writes every name in one transaction
 * (`allOrNothing`), so a start beside another instance's migration sees none or all of its names.
 */
async function migrationsPending(orm: MikroORM): Promise<boolean> {
  const [{ table }] = await orm.em.fork().execute<{ table: string | null }[]>("select to_regclass('mikro_orm_migrations')::text as table");
  if (!table) return true;
  const rows = await orm.em.fork().execute<{ name: string }[]>('select name from mikro_orm_migrations');
  const applied = new Set(rows.map((row) => row.name));
  return MIGRATION_NAMES.some((name) => !applied.has(name));
}

/**
 * MikroORM's migrator over our migrations, loaded on first use (see `loadMigrations`). Registered here rather than
 * left to MikroORM, whose own look-up of the package resolves from the working directory, not from this file.
 */
export function migratorOf(orm: MikroORM): IMigrator {
  if (!orm.config.get('migrations').migrationsList) {
    orm.config.set('migrations', { ...orm.config.get('migrations'), migrationsList: loadMigrations() });
    (require('@mikro-orm/migrations') as typeof import('@mikro-orm/migrations')).Migrator.register(orm);
  }
  return orm.getMigrator();
}

/**
 * The migrator's connections: no client read timeout (READ_TIMEOUT_MS is for requests) and no statement timeout,
 * since rewriting a large table may take longer than any request should wait.
 */
export function migrationOrmConfig(entities: EntityList, url: string): Options {
  return { ...ormConfig(entities, url, 2, 0, 0), ensureDatabase: false };
}

async function migrateOnOwnConnections(url: string, entities: EntityList, logger: Logger): Promise<void> {
  const orm = await MikroORM.init(migrationOrmConfig(entities, url));
  try {
    await migrate(orm, logger);
  } finally {
    await orm.close();
  }
}

/** Any number to name the lock; only this service takes it. */
export const MIGRATION_LOCK = 746_211_903;

/**
 * All migrations in one transaction, free of DATABASE_STATEMENT_TIMEOUT_MS (rewriting a large table may take longer
 * than any request should), under a transaction-level advisory lock, so instances (or test workers) starting
 * together take turns. Transaction-level, not session-level: behind PgBouncer in transaction mode a session lock
 * would stay on a server connection after the client left (docs/scaling.md). The migrator first makes sure its
 * own table exists, on another pooled connection: that runs in a first locked transaction, so two instances
 * never create it at once, and so the second one, which holds the lock, never waits on a connection beside it.
 */
async function migrate(orm: MikroORM, logger: Logger): Promise<void> {
  const migrator = migratorOf(orm);
  // The time-out is lifted before the lock is asked for: an instance waits for another's migrations however long
  // they take, rather than failing its start.
  const takeLock = async (tx: EntityManager) => {
    await tx.execute('set local statement_timeout = 0');
    await tx.execute('select pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
  };
  await orm.em.fork().transactional(async (tx) => {
    await takeLock(tx);
    await migrator.getExecutedMigrations();
  });
  const applied = await orm.em.fork().transactional(async (tx) => {
    await takeLock(tx);
    return migrator.up({ transaction: tx.getTransactionContext() });
  });
  if (applied.length > 0) logger.info({ migrations: applied.map((m) => m.name) }, 'applied database migrations');
}

/**
 * The embedded PGlite: while one connection holds a transaction it makes the others wait, so the migrator's own
 * bookkeeping beside a locked transaction would deadlock; a session lock on a connection of its own instead
 * (the time-out does not apply there).
 */
async function migrateEmbedded(orm: MikroORM, url: string, logger: Logger): Promise<void> {
  const lock = new Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = await migratorOf(orm).up();
    if (applied.length > 0) logger.info({ migrations: applied.map((m) => m.name) }, 'applied database migrations');
  } finally {
    await lock.end();
  }
}

/** Behind a pooler the statement time-out must come from the role (ALTER ROLE … SET statement_timeout): say so when it does not. */
async function warnWithoutRoleTimeout(orm: MikroORM, logger: Logger): Promise<void> {
  const [row] = await orm.em.fork().execute<{ statement_timeout: string }[]>('show statement_timeout');
  if (row.statement_timeout === '0') {
    logger.warn('DATABASE_POOLER is set and the database role has no statement_timeout: set it per role (docs/scaling.md, "PgBouncer")');
  }
}

function missingDatabase(url: string): StartupError {
  const { pathname, host } = new URL(url);
  return new StartupError(
    `The database "${decodeURIComponent(pathname.slice(1))}" does not exist on ${host} (DATABASE_URL). Check the name, create it, or set DATABASE_CREATE=1 to have it created.`,
  );
}
