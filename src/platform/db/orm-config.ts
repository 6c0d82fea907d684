import { defineConfig, type Options } from '@mikro-orm/postgresql';

/** The entity classes the ORM maps: the apps list them (src/apps/entities.ts); this layer knows none. */
export type EntityList = NonNullable<Options['entities']>;

/** How long the client waits for any answer from PostgreSQL (0: for ever), so a request never hangs on a silent server. */
export const READ_TIMEOUT_MS = 15_000;

/**
 * The ORM settings for one PostgreSQL database; every entity is listed, none discovered from disk (the migrations
 * are listed in src/platform/db/migrations and given to the migrator when it is needed: migratorOf in database.ts).
 * `statementTimeoutMs` (0: none) makes PostgreSQL cancel any statement running longer, so one caller's heavy
 * query cannot hold a connection and the server's work for long (sent at connect, as `statement_timeout`).
 */
export function ormConfig(entities: EntityList, clientUrl: string, poolSize = 10, statementTimeoutMs = 0, readTimeoutMs = READ_TIMEOUT_MS): Options {
  return defineConfig({
    clientUrl,
    entities,
    forceUtcTimezone: true,
    discovery: { disableDynamicFileAccess: true },
    // Bounded waits: while PostgreSQL is down a request fails within seconds (503), it never hangs.
    pool: { min: 0, max: poolSize, acquireTimeoutMillis: 5000 },
    driverOptions: { connection: { connectionTimeoutMillis: 3000, query_timeout: readTimeoutMs || undefined, statement_timeout: statementTimeoutMs || undefined } },
    migrations: { transactional: true, allOrNothing: true, snapshot: false, silent: true },
    allowGlobalContext: false,
    debug: false,
  });
}
