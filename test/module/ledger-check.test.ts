import { MikroORM } from '@mikro-orm/postgresql';
import { ormConfig } from '../../mikro-orm.config';
import { selectViolations } from '../../src/modules/ledger/ledger-store';
import { testRun } from '../support/test-env';

/**
 * check-ledger's scans read the whole ledger: on a large one they outlast the connection's read timeout, which is
 * there to fail requests fast when PostgreSQL falls silent. Here the connection gives up after 200 ms and a
 * "scan" takes 600 ms.
 */
/**
 * Each test gets a connection of its own: a statement cut off by the client still runs on the server, so a
 * connection shared with the next test would still be busy (and time that test's BEGIN out).
 */
async function onOwnConnection<T>(work: (orm: MikroORM) => Promise<T>): Promise<T> {
  const settings = ormConfig(testRun().databaseUrl, 1);
  const orm = await MikroORM.init({ ...settings, driverOptions: { connection: { query_timeout: 200 } } });
  try {
    return await work(orm);
  } finally {
    await orm.close(true);
  }
}

const SLOW_SCAN = { name: 'slow', sql: `select 'row-1' as subject, 'late' as detail from pg_sleep(0.6)` };

test('a request statement on this connection is cut off after its read timeout', async () => {
  await onOwnConnection((orm) => expect(orm.em.fork().transactional((tx) => tx.execute('select pg_sleep(0.6)'))).rejects.toThrow(/timeout/i));
});

test("a ledger scan outlasts the connection's read timeout, inside the check's transaction", async () => {
  const violations = await onOwnConnection((orm) => orm.em.fork().transactional((tx) => selectViolations(tx, SLOW_SCAN)));
  expect(violations).toEqual([{ invariant: 'slow', subject: 'row-1', detail: 'late' }]);
});
