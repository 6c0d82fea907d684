import type { Config } from '../../shared/config';
import type { CardProcessor } from './card-processor';
import type { AdyenProcessor } from './adyen/adyen-processor';
import { sqlNotificationStore } from './adyen/notification-store';
import { SimulatedAcquirer } from './simulated-acquirer';
import { memoryRecords, type RunSql, sqlRecords } from './simulator-records';
import { memorySimulatedEvents, sqlSimulatedEvents } from './simulated-event-store';

/** CARD_PROCESSOR names the adapter; another acquirer is one more entry (the key list is the config's allowed values). */
const ADAPTERS: Record<Config['cardProcessor'], (config: Config, sql: RunSql | undefined, baseUrl: string | undefined) => CardProcessor> = {
  simulated: (config, sql) =>
    new SimulatedAcquirer(config.simulatedAcquirerDelayMs, config.simulatedRefundDelayMs, sql ? sqlRecords(sql) : memoryRecords(), {
      store: sql ? sqlSimulatedEvents(sql) : memorySimulatedEvents(),
      delayMs: config.simulatedEventDelayMs,
    }),
  adyen: (config, sql, baseUrl) => {
    const publicUrl = baseUrl ?? config.baseUrl;
    if (!config.adyen || !sql || !publicUrl) throw new Error('the Adyen processor needs its settings, the database and the public base URL');
    // The checkout page's origin (BASE_URL without its path): Adyen's `origin` for 3-D Secure 2.
    // Loaded only when chosen: Adyen's library takes longer to load than the rest of the service together.
    const { AdyenProcessor: Adyen } = require('./adyen/adyen-processor') as { AdyenProcessor: typeof AdyenProcessor };
    return new Adyen(config.adyen, sqlNotificationStore(sql), new URL(publicUrl).origin);
  },
};

/** The start log's line about the processor: which one runs, and plainly that the simulator charges nothing. */
export function processorDescription(config: Config): string {
  if (config.cardProcessor === 'adyen') return `card processor: Adyen (${config.adyen!.environment} environment, ${config.adyen!.checkoutEndpoint})`;
  return 'card processor: the SIMULATED acquirer: test cards only, no card is ever charged (CARD_PROCESSOR=adyen for real payments)';
}

/**
 * `sql` runs statements on the service's database; the simulator keeps its records there (docs/checkout.md).
 * `baseUrl` is the service's public address (BASE_URL, or the local one it listens on), where the checkout page is.
 */
export function createCardProcessor(config: Config, sql?: RunSql, baseUrl?: string): CardProcessor {
  return ADAPTERS[config.cardProcessor](config, sql, baseUrl);
}
