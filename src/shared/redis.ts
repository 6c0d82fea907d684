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
