import Redis from 'ioredis';
import { dropDatabase } from './databases';
import { TEST_REDIS_URL } from './test-env';

/** Drops the run's databases and deletes every Redis key under the run's prefix. */
export default async function globalTeardown(): Promise<void> {
  for (const name of process.env.TEST_DATABASE_NAMES?.split(',') ?? []) await dropDatabase(name);
  const prefix = process.env.TEST_REDIS_PREFIX;
  if (!prefix) return;
  const redis = new Redis(TEST_REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  redis.disconnect();
}
