import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createEmptyDatabase } from './databases';
import { POSTGRES_ADMIN_URL } from './test-env';

/**
 * Global setup for the mutation run of the state machines (stryker.state.config.mjs). Stryker starts jest
 * once per mutant in the same process; a fresh database per start would be migrated per mutant, minutes
 * in all. So the first start in a process creates the database (the usual global setup) and later starts
 * reuse it: the tests create their own rows and never assume an empty table. There is no global teardown
 * (it would run after every mutant); instead, databases left by mutation runs that have ended are dropped here.
 *
 * A run's database is known to be in use by a session of its own, held open for the process's lifetime: process
 * ids cannot tell, since runs on one PostgreSQL may live in process namespaces that do not see each other (a
 * database dropped under a running worker made every later test fail, which counted its mutants as killed).
 * Should the database go all the same, the held session ends and the next start makes a new one.
 */
const PREFIX = 'payments_mutation';
/** A database younger than this is not dropped even without a session: its worker may be about to open one. */
const GRACE_MS = 60_000;
/** Any time in a name before this is not a time (2020-01-01). */
const EARLIEST = Date.UTC(2020, 0, 1);
const HELD = Symbol.for('payments.mutation.database');

type Held = { name: string; lost: boolean };

export default async function mutationGlobalSetup(): Promise<void> {
  const held = (globalThis as { [HELD]?: Held })[HELD];
  if (held && !held.lost) return;
  await dropDatabasesOfEndedRuns();
  // The same three settings as global-setup.ts.
  const database = await createEmptyDatabase(`${PREFIX}_${Date.now()}`);
  const session = new Client({ connectionString: database.url });
  await session.connect();
  const state: Held = { name: database.name, lost: false };
  const lose = () => void (state.lost = true);
  session.on('error', lose);
  session.on('end', lose);
  // The session marks the database in use; it must not keep the worker alive.
  (session as unknown as { connection: { stream: { unref(): void } } }).connection.stream.unref();
  (globalThis as { [HELD]?: Held })[HELD] = state;
  process.env.TEST_DATABASE_NAMES = database.name;
  process.env.TEST_DATABASE_URLS = database.url;
  process.env.TEST_REDIS_PREFIX = `test:${randomBytes(4).toString('hex')}:`;
}

/**
 * Names of mutation databases no session uses that were made before the grace period (`payments_mutation_<ms>_<hex>`).
 * A name with no time in it (an older form) is left alone: nothing tells whether its run has ended.
 */
export function endedRunDatabases(rows: readonly { datname: string; sessions: number }[], now: number): string[] {
  return rows
    .filter(({ datname, sessions }) => {
      const made = Number(datname.slice(PREFIX.length + 1).split('_')[0]);
      return sessions === 0 && made > EARLIEST && now - made > GRACE_MS;
    })
    .map(({ datname }) => datname);
}

async function dropDatabasesOfEndedRuns(): Promise<void> {
  const client = new Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string; sessions: number }>(
      `select d.datname, (select count(*) from pg_stat_activity a where a.datname = d.datname)::int as sessions
         from pg_database d where d.datname like $1`,
      [`${PREFIX}\\_%`],
    );
    // Not `with (force)`: a session opened since the look-up keeps its database.
    for (const name of endedRunDatabases(rows, Date.now())) await client.query(`drop database if exists "${name}"`).catch(() => undefined);
  } finally {
    await client.end();
  }
}
