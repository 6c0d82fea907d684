import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './shared/config';
import { openDatabase, type Database } from './db/database';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createCardTestingGuard } from './checkout/card-testing-guard';
import { createMetrics, type Metrics } from './observability/metrics';
import type { AppServices } from './graphql/context';
import { buildAppSchema } from './graphql/schema';
import { SimulatedAcquirer } from './processor/simulated-acquirer';
import { createApp } from './app';
import { answerClientError } from './http/client-errors';
import type { RateLimits } from './http/authenticate';
import { createRateLimiter } from './rate-limit/rate-limiter';
import { startRefundJobs } from './refunds/refund-jobs';
import type { Logger } from './shared/logger';
import { connectRedis, redisReady, type Redis } from './shared/redis';
import { createCredentialCache } from './shops/credential-cache';
import { startWebhookRuntime, type WebhookRuntime } from './webhooks/webhook-runtime';

export interface RunningService {
  url: string;
  database: Database;
  redis: Redis | undefined;
  services: AppServices;
  stop(): Promise<void>;
}

/**
 * Boot order: database (migrated) -> Redis -> webhook relay and workers -> schema -> HTTP. `stop` drains
 * requests, lets webhook attempts in flight finish, then closes.
 */
export async function startService(config: Config, logger: Logger): Promise<RunningService> {
  const database = await openDatabase(config, logger);
  const redis = config.redisUrl ? connectRedis(config.redisUrl) : undefined;
  if (redis) redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection problem'));
  if (redis && !(await redisReady(redis, 5000))) logger.warn('Redis is not reachable yet: starting anyway (limits per process, events wait in the outbox)');
  else logger.warn('REDIS_URL is not set: rate limits are kept in this process. For one instance and local use only.');

  const metrics = createMetrics();
  const webhooks = startWebhookRuntime(config, database.orm, logger, config.webhooks.workersInService, metrics);
  const schema = await buildAppSchema();
  const services = appServices(config, redis, logger, webhooks, database.orm, metrics);
  const { app, drain, stop: stopGraphQL } = await createApp({
    config, orm: database.orm, redis, schema, limits: rateLimits(config, redis), services, logger,
    queues: [...webhooks.queues, ...services.refunds.queues],
  });
  const server = http.createServer(app);
  server.on('clientError', answerClientError(logger));
  await new Promise<void>((resolve) => server.listen(config.port, resolve));
  const { port } = server.address() as AddressInfo;
  logger.info({ port, baseUrl: config.baseUrl }, 'payment service listening');

  return {
    url: `http://127.0.0.1:${port}`,
    database,
    redis,
    services,
    async stop() {
      drain();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stopGraphQL();
      await services.refunds.stop();
      await webhooks.stop();
      services.credentials.close();
      redis?.disconnect();
      await database.close();
    },
  };
}

function appServices(config: Config, redis: Redis | undefined, logger: Logger, webhooks: WebhookRuntime, orm: MikroORM, metrics: Metrics): AppServices {
  const processor = new SimulatedAcquirer(config.simulatedAcquirerDelayMs, config.simulatedRefundDelayMs);
  return {
    baseUrl: config.baseUrl,
    metrics,
    checkout: {
      processor,
      metrics,
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
    webhooks: {
      urlPolicy: { allowPrivateNetworks: config.webhooks.allowPrivateNetworks },
      baseUrl: config.baseUrl,
      wake: webhooks.wake,
    },
    refunds: startRefundJobs({
      orm,
      processor,
      logger,
      redisUrl: config.redisUrl,
      redisKeyPrefix: config.redisKeyPrefix,
      sweepIntervalMs: config.refunds.sweepIntervalMs,
      processingTimeoutMs: config.refunds.processingTimeoutMs,
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
