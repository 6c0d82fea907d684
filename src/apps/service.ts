import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { publicBaseUrl, type Config } from '../shared/config';
import { openDatabase, type Database } from '../platform/db/database';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createCardTestingGuard, startReconciliationJobs, startAcquirerInbox, type InboxDrain } from '../modules/checkout';
import { createMetrics, type Metrics } from '../platform/observability/metrics';
import type { AppServices } from '../api/graphql/context';
import { buildAppSchema } from './schema';
import { createAcquirer, processorDescription } from '../platform/processor/processors';
import { SimulatedAcquirer } from '../platform/processor/simulated-acquirer';
import type { Acquirer } from '../platform/processor/acquirer-inbound';
import { createApp } from './app';
import { answerClientError } from '../platform/http/client-errors';
import type { RateLimits } from '../api/http/authenticate';
import { createRateLimiter } from '../platform/rate-limit/rate-limiter';
import { createSecretBox, createCredentialCache, SESSION_RULES } from '../modules/identity';
import { startRefundJobs } from '../modules/refunds';
import { chargebackStands, reweighDisputes } from '../modules/disputes';
import { PaymentStatus, samplePaymentPayload } from '../modules/payments';
import type { Logger } from '../shared/logger';
import { StartupError } from '../shared/startup-error';
import { connectRedis, redisReady, type Redis } from '../shared/redis';
import { pooledRunner } from '../platform/db/pooled-query';
import { checkWebhookUrl, startWebhookRuntime, type WebhookRuntime } from '../modules/webhooks';
import { noticeNewSignIn, queueAccountMail, startMailRuntime, type MailRuntime } from '../modules/notifications';
import { loadStatementKeys, requireStatementKeyOutsideLocal } from '../modules/ledger';
import { startRequestLog } from '../modules/request-log';
import { sampleRefundPayload } from '../modules/refunds';
import { sampleWithdrawalPayload } from '../modules/withdrawals';
import type { WebhookEventType } from '../modules/identity';
import { ENTITIES } from './entities';

export interface RunningService {
  url: string;
  database: Database;
  redis: Redis | undefined;
  services: AppServices;
  stop(): Promise<void>;
}

/**
 * Boot order: schema -> database (migrated) -> Redis -> the port -> webhook relay and workers -> HTTP. The schema
 * needs nothing from the database, so it is built while the embedded database starts in its own thread. The
 * port is taken before the app is built so that `checkout_url` carries the port actually bound (PORT=0);
 * requests arriving meanwhile wait for the app. `stop` drains requests, lets webhook attempts in flight
 * finish, then closes.
 */
export async function startService(config: Config, logger: Logger): Promise<RunningService> {
  // First: a refusal (no signing key outside localhost) leaves nothing opened.
  requireStatementKeyOutsideLocal(config);
  const schema = await buildAppSchema();
  performance.mark('schema-built');
  const database = await openDatabase(config, logger, ENTITIES);
  performance.mark('database-open');
  // Once the data directory is this process's: a second service refused by its lock neither writes nor warns.
  const statementKeys = loadStatementKeys(config, logger);
  const redis = config.redisUrl ? connectRedis(config.redisUrl) : undefined;
  if (redis) {
    redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection problem'));
    if (!(await redisReady(redis, 5000))) logger.warn('Redis is not reachable yet: starting anyway (limits per process, events wait in the outbox)');
  } else {
    logger.warn('REDIS_URL is not set: rate limits are kept in this process. For one instance and local use only.');
  }

  const { server, port, serve } = await listen(config.port).catch(async (error) => {
    redis?.disconnect();
    await database.close();
    throw error;
  });
  const baseUrl = publicBaseUrl(config, port);
  const metrics = createMetrics();
  const webhooks = startWebhookRuntime(config, database.orm, logger, config.webhooks.workersInService, metrics);
  const mail = startMailRuntime(config, database.orm, logger, baseUrl, config.mail.workersInService, metrics);
  const requestLog = startRequestLog(() => database.orm.em.fork(), logger);
  const { services, acquirerEndpoint } = appServices(config, baseUrl, redis, logger, webhooks, database.orm, metrics, mail);
  const { app, drain, stop: stopGraphQL } = await createApp({
    config, baseUrl, orm: database.orm, redis, schema, limits: rateLimits(config, redis), services, logger,
    queues: [...webhooks.queues, ...services.refunds.queues, ...mail.queues],
    workers: { webhook: webhooks.alive, mail: mail.alive },
    statementKeys,
    requestLog,
    acquirerEndpoint,
  });
  server.on('clientError', answerClientError(logger));
  serve(app);
  performance.mark('listening');
  logger.info({ port, baseUrl, startupMs: startupMarks() }, 'payment service listening');
  logger.info({ cardProcessor: config.cardProcessor }, processorDescription(config));
  if (!config.accountSecretsKey) {
    logger.warn('ACCOUNT_SECRETS_KEY is not set: TOTP secrets and payout account numbers are stored unencrypted. Set it outside local use (docs/operations.md, "Security settings").');
  }
  if (config.sessionCookiesInsecure) logger.warn('SESSION_COOKIES_INSECURE=1: session cookies go without Secure and the __Host- prefix. For plain-http local development only.');
  // The start's lines are written now, not with the next 4 KB of request logs: whoever waits for "listening" sees it.
  logger.flush();

  return {
    url: `http://127.0.0.1:${port}`,
    database,
    redis,
    services,
    async stop() {
      drain();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stopGraphQL();
      await services.reconciliation.stop();
      await services.acquirerNotifications.inbox.stop();
      await services.refunds.stop();
      await webhooks.stop();
      await mail.stop();
      await requestLog.stop();
      services.credentials.close();
      redis?.disconnect();
      await database.close();
    },
  };
}

/**
 * Milliseconds from the process's start to each step of it (`npm run bench:startup` reads them): modules loaded (main.ts),
 * database open, schema built, listening. Steps overlap: the embedded database starts while the modules load.
 */
function startupMarks(): Record<string, number> {
  const marks = Object.fromEntries(performance.getEntriesByType('mark').map((mark) => [mark.name, Math.round(mark.startTime)]));
  performance.clearMarks();
  return marks;
}

/** Binds the port; requests that arrive before `serve(app)` are held and then handed to the app. */
async function listen(port: number): Promise<{ server: http.Server; port: number; serve(app: http.RequestListener): void }> {
  const held: [http.IncomingMessage, http.ServerResponse][] = [];
  const hold: http.RequestListener = (req, res) => void held.push([req, res]);
  const server = http.createServer(hold);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' ? portTaken(port) : error));
    server.listen(port, resolve);
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    serve(app) {
      server.off('request', hold).on('request', app);
      for (const [req, res] of held.splice(0)) app(req, res);
    },
  };
}

const portTaken = (port: number) =>
  new StartupError(`Port ${port} is already in use (is the service already running?). Stop the other process, or set PORT to a free port (0 picks one).`);

function appServices(
  config: Config, baseUrl: string, redis: Redis | undefined, logger: Logger, webhooks: WebhookRuntime, orm: MikroORM, metrics: Metrics, mail: MailRuntime,
): { services: AppServices; acquirerEndpoint: Acquirer['endpoint'] } {
  // The simulator keeps what it charged in its own table, so its look-ups survive a restart (docs/checkout.md); its
  // statements run on a pooled connection, like the card path around them (docs/decisions/0012-hot-paths.md).
  const acquirer = createAcquirer(config, pooledRunner(orm.em), baseUrl);
  const { processor } = acquirer;
  const checkout = {
    processor,
    metrics,
    guard: createCardTestingGuard(config.checkoutLimits, redis, config.redisKeyPrefix),
    baseUrl,
    logger,
    wakeMail: mail.wake,
    expiresAfterMs: config.paymentExpiresAfterMs,
    // A live test's automatic refund, handed to the refund jobs once its completion committed (only called later, by a completion).
    refundLiveTest: (paymentId: string) => refunds.refundLiveTest(paymentId),
  };
  const refunds = startRefundJobs({
    orm,
    processor,
    logger,
    redisUrl: config.redisUrl,
    redisKeyPrefix: config.redisKeyPrefix,
    sweepIntervalMs: config.refunds.sweepIntervalMs,
    processingTimeoutMs: config.refunds.processingTimeoutMs,
    baseUrl,
    // Disputes read refunds, so refunds are handed disputes' answers rather than importing them.
    chargebackStands,
    reweighDisputes,
  });
  const urlPolicy = { allowPrivateNetworks: config.webhooks.allowPrivateNetworks };
  // Adyen's notifications and the simulator's events alike: due retries and events another instance kept are picked up
  // within the sweep; a fresh one is applied at once (its endpoint wakes the drain, or the simulator when it falls due).
  const drain = startAcquirerInbox({ em: () => orm.em.fork(), store: acquirer.inbox, checkout, logger, intervalMs: Math.min(config.reconciliation.intervalMs, 5000) });
  const secrets = createSecretBox(config.accountSecretsKey, config.accountSecretsOldKeys);
  const services: AppServices = {
    baseUrl,
    logger,
    adminTokenTtlDays: config.adminTokenTtlDays,
    paymentMaximums: config.paymentMaximums,
    accounts: {
      signup: config.sellerSignup,
      sessions: { idleTimeoutMs: config.sessionIdleTimeoutMs, absoluteTimeoutMs: config.sessionAbsoluteTimeoutMs },
      queueMail: (em, sellerId, mail) => queueAccountMail(em, secrets, sellerId, mail),
      attemptsPerClient: createRateLimiter({ points: config.accountAttemptsPerClient, windowSeconds: 900, keyPrefix: `${config.redisKeyPrefix}rl:account-attempts`, redis }),
      secrets,
      cookies: config.sessionCookiesInsecure ? 'insecure-http' : 'secure',
      resetMailsPerAddress: createRateLimiter({
        points: config.passwordResetMailsPerHour,
        windowSeconds: 3600,
        keyPrefix: `${config.redisKeyPrefix}rl:reset-mails`,
        redis,
      }),
      sessionRules: SESSION_RULES,
      noticeNewSignIn,
    },
    metrics,
    checkout,
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
      urlPolicy,
      checkUrl: (url) => checkWebhookUrl(url, urlPolicy),
      // Payments build every payment payload and hand it to the outbox, the test delivery's sample too.
      samplePayment: (createdAt) => samplePaymentPayload(baseUrl, createdAt),
      sampleSubjects: (type, createdAt) => sampleSubjects(baseUrl, type, createdAt),
      wake: webhooks.wake,
      testDeliveries: createRateLimiter({
        points: config.webhooks.testDeliveriesPerMinute,
        windowSeconds: 60,
        keyPrefix: `${config.redisKeyPrefix}rl:webhook-test`,
        redis,
      }),
    },
    refunds,
    reconciliation: startReconciliationJobs({ orm, checkout, metrics, logger, settings: config.reconciliation, enqueueRefund: (id) => refunds.enqueue(id) }),
    acquirerNotifications: { store: acquirer.inbox, inbox: drain },
    simulator: processor instanceof SimulatedAcquirer ? simulatorControls(processor, drain) : null,
    mail,
  };
  return { services, acquirerEndpoint: acquirer.endpoint };
}

/**
 * The simulated acquirer tells its later events (a dispute, a refund failure, a chargeback reversed) through the drain
 * that applies Adyen's notifications (docs/checkout.md, "Test cards"), woken when each falls due.
 */
function simulatorControls(acquirer: SimulatedAcquirer, drain: InboxDrain): NonNullable<AppServices['simulator']> {
  // A little after the event falls due by the database's clock, which set it.
  acquirer.onScheduled = (delayMs) => drain.wake(delayMs + 50);
  return {
    drain: () => drain.drain(),
    async reverseChargeback(chargeback) {
      await acquirer.reverseChargeback(chargeback);
      await drain.drain();
    },
  };
}

/** A triggered test event's subjects: what a real event of the type tells, about a payment, refund or withdrawal that do not exist. */
function sampleSubjects(baseUrl: string, type: WebhookEventType, at: Date) {
  if (type === 'withdrawal.paid' || type === 'withdrawal.rejected') return { withdrawal: sampleWithdrawalPayload(at, type === 'withdrawal.rejected') };
  if (type === 'payment.refunded') return { payment: samplePaymentPayload(baseUrl, at, PaymentStatus.REFUNDED), refund: sampleRefundPayload(at, false) };
  if (type === 'refund.failed') return { payment: samplePaymentPayload(baseUrl, at), refund: sampleRefundPayload(at, true) };
  return { payment: samplePaymentPayload(baseUrl, at, type === 'payment.failed' ? PaymentStatus.FAILED : PaymentStatus.COMPLETED) };
}

function rateLimits(config: Config, redis: Redis | undefined): RateLimits {
  const prefix = `${config.redisKeyPrefix}rl:`;
  return {
    perApiKey: createRateLimiter({ points: config.rateLimitPerMinute, windowSeconds: 60, keyPrefix: `${prefix}key`, redis }),
    authFailuresPerClient: createRateLimiter({ points: config.authFailuresPerMinute, windowSeconds: 60, keyPrefix: `${prefix}authfail`, redis }),
    graphqlCostPerApiKey: createRateLimiter({ points: config.graphqlLimits.costPerMinute, windowSeconds: 60, keyPrefix: `${prefix}cost`, redis }),
  };
}
