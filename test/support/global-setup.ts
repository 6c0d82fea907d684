import { randomBytes } from 'node:crypto';
import { createEmptyDatabase } from './databases';

/**
 * One fresh database and one Redis key prefix for this whole test run. The first service to start
 * migrates it (under an advisory lock). MikroORM is not loaded here: Jest's global setup shares a realm
 * with in-band tests, and MikroORM's global metadata must not cross realms.
 */
export default async function globalSetup(): Promise<void> {
  const database = await createEmptyDatabase('payments_test');
  process.env.TEST_DATABASE_NAME = database.name;
  process.env.TEST_DATABASE_URL = database.url;
  process.env.TEST_REDIS_PREFIX = `test:${randomBytes(4).toString('hex')}:`;
}
