import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createEmptyDatabase } from './databases';
import { POSTGRES_ADMIN_URL } from './test-env';

/**
 * Global setup for the mutation run of the state machines (stryker.state.config.mjs). Stryker starts jest
 * once per mutant in the same process; a fresh database per start would be migrated per mutant, minutes
 * in all. So the first start in a process creates the database (the usual global setup) and later starts
 * reuse it: the tests create their own rows and never assume an empty table. There is no global teardown
 * (it would run after every mutant); instead, databases left by mutation runs whose process has ended are
 * dropped here, recognised by the process id in their name.
 */
const PREFIX = 'payments_mutation';

export default async function mutationGlobalSetup(): Promise<void> {
  if (process.env.TEST_DATABASE_URLS) return;
  await dropDatabasesOfEndedRuns();
  // The same three settings as global-setup.ts.
  const database = await createEmptyDatabase(`${PREFIX}_${process.pid}`);
  process.env.TEST_DATABASE_NAMES = database.name;
  process.env.TEST_DATABASE_URLS = database.url;
  process.env.TEST_REDIS_PREFIX = `test:${randomBytes(4).toString('hex')}:`;
}

async function dropDatabasesOfEndedRuns(): Promise<void> {
  const client = new Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${PREFIX}\\_%`]);
    for (const { datname } of rows) {
      const pid = Number(datname.split('_')[2]);
      if (!isRunning(pid)) await client.query(`drop database if exists "${datname}" with (force)`);
    }
  } finally {
    await client.end();
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
