import Redis, { type RedisOptions } from 'ioredis';

/**
 * A Redis client that fails fast while Redis is down (no offline queue), so callers can fall back
 * instead of hanging; it keeps reconnecting in the background.
 */
export function connectRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    ...options,
  });
}

export type { Redis };

/**
 * Waits up to `timeoutMs` for the connection, so an instance is ready when it starts listening. If Redis
 * stays away the service starts anyway: rate limits fall back to this process and events wait in the outbox.
 */
export async function redisReady(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), timeoutMs);
    const onReady = () => done(true);
    function done(ready: boolean) {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ready);
    }
    redis.once('ready', onReady);
  });
}
