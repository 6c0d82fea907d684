import type { Options } from '@mikro-orm/postgresql';
import { ENTITIES } from './src/apps/entities';
import { ormConfig as ormConfigOf, READ_TIMEOUT_MS } from './src/platform/db/orm-config';

// The settings the MikroORM CLI and the tests that open an ORM of their own read: the platform's, with the apps'
// entity list (src/apps/entities.ts). The service itself hands the list to openDatabase.
export { ENTITIES, READ_TIMEOUT_MS };

export function ormConfig(clientUrl: string, poolSize = 10, statementTimeoutMs = 0, readTimeoutMs = READ_TIMEOUT_MS): Options {
  return ormConfigOf(ENTITIES, clientUrl, poolSize, statementTimeoutMs, readTimeoutMs);
}

export default ormConfig(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/payments');
