import { pooledQuery } from '../../../src/platform/db/pooled-query';
import { useModuleDatabase } from '../../support/module-database';

/**
 * The hot statements (src/platform/db/pooled-query.ts) are named prepared statements on a connection of the service's
 * own, parsed and planned once; behind PgBouncer in transaction mode, where the next statement may run on another
 * server connection, they go unnamed (test/e2e/pgbouncer.test.ts runs the service that way through a real PgBouncer).
 */
const db = useModuleDatabase({ poolSize: 1 });
const SUM = 'select ?::int + ?::int as n';

const preparedHotStatements = async (database: { em: () => Parameters<typeof pooledQuery>[0] }) =>
  (await pooledQuery(database.em(), 'select name, statement from pg_prepared_statements where name like ?', ['hot\\_%'])) as { name: string; statement: string }[];

test('a hot statement is prepared once on its connection, then sent by name with new values', async () => {
  expect(await pooledQuery(db.em(), SUM, [1, 2])).toEqual([{ n: 3 }]);
  expect(await pooledQuery(db.em(), SUM, [40, 2])).toEqual([{ n: 42 }]);
  const sums = (await preparedHotStatements(db)).filter((row) => row.statement === 'select $1::int + $2::int as n');
  expect(sums).toHaveLength(1);
  expect(sums[0].name).toMatch(/^hot_[0-9a-f]{24}$/);
});

describe('behind PgBouncer in transaction mode', () => {
  const pooled = useModuleDatabase({ poolSize: 1, pooler: 'pgbouncer-transaction' });

  test('hot statements go unnamed: no server connection holds one', async () => {
    expect(await pooledQuery(pooled.em(), SUM, [1, 2])).toEqual([{ n: 3 }]);
    expect(await pooledQuery(pooled.em(), SUM, [40, 2])).toEqual([{ n: 42 }]);
    expect(await preparedHotStatements(pooled)).toEqual([]);
  });
});
