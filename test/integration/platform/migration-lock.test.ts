import { Client } from 'pg';
import { MIGRATION_LOCK } from '../../../src/platform/db/database';
import { useEmptyDatabase } from '../../support/databases';
import { startTestService } from '../../support/test-service';

/**
 * Instances starting together take turns at the migrations under one lock (src/platform/db/database.ts). The one
 * waiting must wait as long as the other's migrations take: a wait cut by DATABASE_STATEMENT_TIMEOUT_MS would fail
 * its start whenever migrating took longer than a request may.
 */
const database = useEmptyDatabase('payments_migration_wait');

async function waitingForTheLock(client: Client): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    const { rows } = await client.query(
      `select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database where l.locktype = 'advisory' and not l.granted and d.datname = current_database()`,
    );
    if (rows[0].n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no instance came to wait for the migration lock within a minute');
}

test('an instance waits for the migration lock past its statement time-out, then starts', async () => {
  const holder = new Client({ connectionString: database.url });
  await holder.connect();
  try {
    // The time-out as a pooler's deployment sets it, on the database (or role) rather than per connection.
    await holder.query(`alter database "${database.name}" set statement_timeout = '300ms'`);
    await holder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const starting = startTestService({ DATABASE_URL: database.url, DATABASE_STATEMENT_TIMEOUT_MS: '0' });
    // Released only once the instance has waited for it several time-outs long.
    await waitingForTheLock(holder);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await holder.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    const service = await starting;
    try {
      expect(service.logs.filter((line) => line.msg === 'applied database migrations')).toHaveLength(1);
    } finally {
      await service.stop();
    }
  } finally {
    await holder.end();
  }
}, 120_000);
