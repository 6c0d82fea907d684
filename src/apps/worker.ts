import './production-mode';
// First after NODE_ENV: with tracing on, the instrumentations must be in place before http, pg, ioredis … load.
import '../platform/observability/tracing-bootstrap';
import 'reflect-metadata';
import { ConfigError, loadConfig, publicBaseUrl } from '../shared/config';
import { openDatabase } from '../platform/db/database';
import { processLogger } from '../shared/logger';
import { stopOnSignals } from '../shared/shutdown';
import { exitOnStartupFailure } from '../shared/startup-error';
import { startWebhookRuntime } from '../modules/webhooks';
import { startMailRuntime } from '../modules/notifications';
import { shutdownTracing, traceLogMixin } from '../platform/observability/tracing';
import { ENTITIES } from './entities';

/**
 * Webhook and mail workers as a process of their own (`npm run worker`), to deliver at a scale the API
 * processes should not carry (set WEBHOOK_WORKERS_IN_SERVICE=0 and MAIL_WORKERS_IN_SERVICE=0 on those). Same configuration as the
 * service; it needs DATABASE_URL (the embedded database belongs to the one service process) and, to
 * share the work through the queue, REDIS_URL. Without REDIS_URL it runs the in-process scheduler
 * over the outbox, which is safe beside others: every attempt is claimed in PostgreSQL.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.databaseUrl) throw new ConfigError('Invalid configuration: DATABASE_URL is required by the worker (the embedded database cannot be shared)');
  const logger = processLogger(config, 1, traceLogMixin());
  const database = await openDatabase(config, logger, ENTITIES);
  const webhooks = startWebhookRuntime(config, database.orm, logger, true);
  // Mails link to the dashboard at BASE_URL (the worker serves nothing itself: PORT only stands in for it).
  const mail = startMailRuntime(config, database.orm, logger, publicBaseUrl(config, config.port), true);
  logger.info({ concurrency: config.webhooks.workerConcurrency, queue: config.redisUrl ? 'bull' : 'in-process' }, 'webhook worker started');
  stopOnSignals(logger, 'webhook worker stopping: finishing attempts in flight', async () => {
    await webhooks.stop();
    await mail.stop();
    await database.close();
    await shutdownTracing();
  });
}

main().catch(exitOnStartupFailure);
