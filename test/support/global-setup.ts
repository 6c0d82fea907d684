import { randomBytes } from 'node:crypto';
import type { Config } from '@jest/types';
import { createEmptyDatabase } from './databases';

/**
 * One fresh database per Jest worker and one Redis key prefix for this whole test run. Suites of one worker run
 * one after another, as the whole run once did, so no suite sees another's relays, sweeps or rows appear mid-test.
 * The first service a worker starts migrates its database (under an advisory lock). MikroORM is not loaded here:
 * Jest's global setup shares a realm with in-band tests, and MikroORM's global metadata must not cross realms.
 */
export default async function globalSetup(globalConfig: Config.GlobalConfig): Promise<void> {
  const databases = await Promise.all(Array.from({ length: Math.max(1, globalConfig.maxWorkers) }, () => createEmptyDatabase('payments_test')));
  process.env.TEST_DATABASE_NAMES = databases.map((d) => d.name).join(',');
  process.env.TEST_DATABASE_URLS = databases.map((d) => d.url).join(',');
  process.env.TEST_REDIS_PREFIX = `test:${randomBytes(4).toString('hex')}:`;
}
