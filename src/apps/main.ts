import './production-mode';
// First after NODE_ENV: with tracing on, the instrumentations must be in place before http, express, pg … load.
import '../platform/observability/tracing-bootstrap';
import { loadConfig } from '../shared/config';
import { startEmbeddedPostgresEarly } from '../platform/db/embedded-postgres';
import { exitOnStartupFailure } from '../shared/startup-error';

/**
 * The rest of the service is required only once the embedded database has begun starting in its own thread, so the
 * two overlap (most of a restart is loading modules and starting PGlite).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.databaseUrl && config.webConcurrency <= 1) startEmbeddedPostgresEarly(config.dataDir);
  require('reflect-metadata');
  const { isClusterPrimary, runClusterPrimary } = require('./cluster') as typeof import('./cluster');
  const { startService } = require('./service') as typeof import('./service');
  const { processLogger } = require('../shared/logger') as typeof import('../shared/logger');
  const { stopOnSignals } = require('../shared/shutdown') as typeof import('../shared/shutdown');
  const { createDemoShopIfEmpty, createSecretBox, demoShopNotice } = require('../modules/identity') as typeof import('../modules/identity');
  const { shutdownTracing, traceLogMixin } = require('../platform/observability/tracing') as typeof import('../platform/observability/tracing');
  performance.mark('modules-loaded');

  const logger = processLogger(config, 1, traceLogMixin());
  if (isClusterPrimary(config)) return runClusterPrimary(config, logger);
  const service = await startService(config, logger);
  const announceDemoShop = async () => {
    const secrets = createSecretBox(config.accountSecretsKey, config.accountSecretsOldKeys);
    const demo = await createDemoShopIfEmpty(service.database.orm.em.fork(), secrets, service.services.checkout.baseUrl);
    if (demo) process.stdout.write(`${demoShopNotice(demo)}\n`);
  };
  const demoShop = service.database.embedded ? announceDemoShop() : Promise.resolve();
  // Signals are handled from the moment the service says it listens: a SIGTERM during the demo shop's writing drains
  // and exits 0 like any other, after that write rather than under it.
  stopOnSignals(logger, 'shutting down: draining requests', async () => {
    await demoShop.catch(() => undefined);
    await service.stop();
    await shutdownTracing();
    await new Promise<void>((resolve) => logger.flush(() => resolve()));
  });
  await demoShop;
}

main().catch(exitOnStartupFailure);
