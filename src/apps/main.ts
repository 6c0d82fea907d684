import './production-mode';
// First after NODE_ENV: with tracing on, the instrumentations must be in place before http, express, pg … load.
import '../platform/observability/tracing-bootstrap';
import 'reflect-metadata';
import { isClusterPrimary, runClusterPrimary } from './cluster';
import { loadConfig } from '../shared/config';
import { startService } from './service';
import { processLogger } from '../shared/logger';
import { stopOnSignals } from '../shared/shutdown';
import { exitOnStartupFailure } from '../shared/startup-error';
import { createDemoShopIfEmpty, createSecretBox, demoShopNotice } from '../modules/identity';
import { shutdownTracing, traceLogMixin } from '../platform/observability/tracing';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = processLogger(config, 1, traceLogMixin());
  if (isClusterPrimary(config)) return runClusterPrimary(config, logger);
  const service = await startService(config, logger);
  if (service.database.embedded) {
    const secrets = createSecretBox(config.accountSecretsKey, config.accountSecretsOldKeys);
    const demo = await createDemoShopIfEmpty(service.database.orm.em.fork(), secrets, service.services.checkout.baseUrl);
    if (demo) process.stdout.write(`${demoShopNotice(demo)}\n`);
  }
  stopOnSignals(logger, 'shutting down: draining requests', async () => {
    await service.stop();
    await shutdownTracing();
    await new Promise<void>((resolve) => logger.flush(() => resolve()));
  });
}

main().catch(exitOnStartupFailure);
