import type IORedis from 'ioredis';
import type { Cluster, RedisOptions } from 'ioredis';
import { parseRedisTarget, type RedisTarget } from './redis-url';

/** One Redis or a Redis Cluster: the commands the service uses behave the same on both. */
export type Redis = IORedis | Cluster;

const retryStrategy = (attempt: number) => Math.min(attempt * 200, 2000);

function targetOf(url: string): RedisTarget {
  const target = parseRedisTarget(url);
  if (!target) throw new Error('REDIS_URL is neither a redis:// URL nor a redis-cluster:// node list');
  return target;
}

/** A client of `url` with `options`; for a cluster, they apply to each node's connection. */
function open(url: string, options: RedisOptions): Redis {
  const target = targetOf(url);
  // Loaded with Redis only: the embedded service and a CLI command never connect to one.
  const ioredis = require('ioredis') as typeof import('ioredis');
  if (target.kind === 'single') return new ioredis.Redis(url, options);
  const { enableOfflineQueue, enableReadyCheck, ...perNode } = options;
  return new ioredis.Cluster(target.nodes, {
    enableOfflineQueue,
    enableReadyCheck,
    clusterRetryStrategy: retryStrategy,
    redisOptions: { ...perNode, username: target.username, password: target.password, tls: target.tls ? {} : undefined },
  });
}

/**
 * A Redis client that fails fast while Redis is down (no offline queue), so callers can fall back
 * instead of hanging; it keeps reconnecting in the background.
 */
export function connectRedis(url: string, options: RedisOptions = {}): Redis {
  return open(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy,
    ...options,
  });
}

/** A client for bull (its `createClient`): bull's blocking commands must never give up, and it does its own ready checks. */
export function connectBullClient(url: string): Redis {
  return open(url, { maxRetriesPerRequest: null, enableReadyCheck: false, retryStrategy });
}

/**
 * bull's key prefix. A queue's Lua scripts touch several of its keys at once, which a cluster allows only within
 * one hash slot: on a cluster the prefix is a hash tag (`{hcp:bull}`), so all of a queue's keys share a slot.
 */
export function bullPrefix(url: string, prefix: string): string {
  return targetOf(url).kind === 'cluster' ? `{${prefix}}` : prefix;
}

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

/**
 * bull names a worker's blocking connection (CLIENT SETNAME) as it starts processing and leaves that promise
 * unhandled: a queue closed meanwhile rejects it with undefined, which would end the process. The name only labels
 * the connection, so failing to set it is dropped. Call before `queue.process`.
 */
export function nameWorkerQuietly(queue: object): void {
  const worker = queue as { setWorkerName(): Promise<unknown> };
  const setWorkerName = worker.setWorkerName.bind(worker);
  worker.setWorkerName = () => setWorkerName().catch(() => undefined);
}
