import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config';
import { openDatabase, type Database } from './db/database';
import { createCardTestingGuard } from './checkout/card-testing-guard';
import type { AppServices } from './graphql/context';
import { buildAppSchema } from './graphql/schema';
import { SimulatedAcquirer } from './processor/simulated-acquirer';
import { createApp } from './http/app';
import type { RateLimits } from './http/authenticate';
import { createRateLimiter } from './rate-limit/rate-limiter';
import type { Logger } from './shared/logger';
import { connectRedis, type Redis } from './shared/redis';
import { createCredentialCache } from './shops/credential-cache';

export interface RunningService {
  url: string;
  database: Database;
  redis: Redis | undefined;
  services: AppServices;
  stop(): Promise<void>;
}

/** Boot order: database (migrated) -> Redis -> schema -> HTTP. `stop` drains requests, then closes. */
export async function startService(config: Config, logger: Logger): Promise<RunningService> {
  const database = await openDatabase(config, logger);
  const redis = config.redisUrl ? connectRedis(config.redisUrl) : undefined;
  if (redis) redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection problem'));
  else logger.warn('REDIS_URL is not set: rate limits are kept in this process. For one instance and local use only.');

  const schema = await buildAppSchema();
  const services = appServices(config, redis, logger);
  const { app, stop: stopGraphQL } = await createApp({ config, orm: database.orm, redis, schema, limits: rateLimits(config, redis), services, logger });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(config.port, resolve));
  const { port } = server.address() as AddressInfo;
  logger.info({ port, baseUrl: config.baseUrl }, 'payment service listening');

  return {
    url: `http://127.0.0.1:${port}`,
    database,
    redis,
    services,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stopGraphQL();
      services.credentials.close();
      redis?.disconnect();
      await database.close();
    },
  };
}

function appServices(config: Config, redis: Redis | undefined, logger: Logger): AppServices {
  return {
    baseUrl: config.baseUrl,
    checkout: {
      processor: new SimulatedAcquirer(config.simulatedAcquirerDelayMs),
      guard: createCardTestingGuard(config.checkoutLimits, redis, config.redisKeyPrefix),
      baseUrl: config.baseUrl,
      logger,
    },
    credentials: createCredentialCache({
      ttlMs: 60_000,
      maxEntries: 100_000,
      redis,
      // A subscribed connection cannot run other commands; it queues while Redis is away and resubscribes.
      subscriber: config.redisUrl ? connectRedis(config.redisUrl, { enableOfflineQueue: true, maxRetriesPerRequest: null }) : undefined,
      channel: `${config.redisKeyPrefix}credentials-changed`,
      logger,
    }),
  };
}

function rateLimits(config: Config, redis: Redis | undefined): RateLimits {
  const prefix = `${config.redisKeyPrefix}rl:`;
  return {
    perApiKey: createRateLimiter({ points: config.rateLimitPerMinute, windowSeconds: 60, keyPrefix: `${prefix}key`, redis }),
    authFailuresPerClient: createRateLimiter({ points: config.authFailuresPerMinute, windowSeconds: 60, keyPrefix: `${prefix}authfail`, redis }),
  };
}
