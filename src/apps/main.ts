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
import { createDemoShopIfEmpty, createSecretBox } from '../modules/identity';
import { shutdownTracing, traceLogMixin } from '../platform/observability/tracing';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = processLogger(config, 1, traceLogMixin());
  if (isClusterPrimary(config)) return runClusterPrimary(config, logger);
  const service = await startService(config, logger);
  if (service.database.embedded) {
    const demo = await createDemoShopIfEmpty(service.database.orm.em.fork(), createSecretBox(config.accountSecretsKey, config.accountSecretsOldKeys));
    if (demo) printDemoCredentials(demo.shop.id, demo.apiKey, demo.webhookSecret);
  }
  stopOnSignals(logger, 'shutting down: draining requests', async () => {
    await service.stop();
    await shutdownTracing();
    await new Promise<void>((resolve) => logger.flush(() => resolve()));
  });
}

/** Shown once: the key is stored only as a hash and cannot be printed again. */
function printDemoCredentials(shopId: string, apiKey: string, webhookSecret: string): void {
  process.stdout.write(
    [
      '',
      'Demo shop created (shown once, store it now):',
      `  shop id:        ${shopId}`,
      `  API key:        ${apiKey}`,
      `  webhook secret: ${webhookSecret}`,
      '',
    ].join('\n') + '\n',
  );
}

main().catch(exitOnStartupFailure);
