/** Where the test run's own database and Redis namespace are; set by global-setup, read everywhere. */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export function databaseUrlFor(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** This worker's database and Redis prefix: each Jest worker has its own (global-setup.ts). */
export function testRun(): { databaseUrl: string; redisPrefix: string } {
  const urls = process.env.TEST_DATABASE_URLS?.split(',');
  const redisPrefix = process.env.TEST_REDIS_PREFIX;
  if (!urls || !redisPrefix) throw new Error('global-setup did not run');
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');
  const databaseUrl = urls[(worker - 1) % urls.length];
  return { databaseUrl, redisPrefix: `${redisPrefix}w${worker}:` };
}
