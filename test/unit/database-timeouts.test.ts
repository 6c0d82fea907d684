import { ENTITIES, ormConfig, READ_TIMEOUT_MS } from '../../mikro-orm.config';
import { migrationOrmConfig } from '../../src/platform/db/database';

const URL = 'postgresql://postgres@127.0.0.1:5432/any';
const connectionOf = (options: { driverOptions?: unknown }) => (options.driverOptions as { connection: Record<string, unknown> }).connection;

test("a request's connection gives up on a silent PostgreSQL, and PostgreSQL cancels its long statements", () => {
  expect(connectionOf(ormConfig(URL, 5, 5000))).toMatchObject({ query_timeout: READ_TIMEOUT_MS, statement_timeout: 5000 });
  expect(READ_TIMEOUT_MS).toBe(15_000);
});

test("the migrator's connections wait as long as a migration takes: no read timeout, no statement timeout", () => {
  const connection = connectionOf(migrationOrmConfig(ENTITIES, URL));
  expect(connection.query_timeout).toBeUndefined();
  expect(connection.statement_timeout).toBeUndefined();
  expect(migrationOrmConfig(ENTITIES, URL)).toMatchObject({ clientUrl: URL, ensureDatabase: false });
});
