import type { Config } from '../../shared/config';
import type { Acquirer } from './acquirer-inbound';
import { adyenAcquirer } from './adyen/adyen-acquirer';
import { SimulatedAcquirer } from './simulated-acquirer';
import { memoryRecords, type RunSql, sqlRecords } from './simulated-operation-store';
import { memorySimulatedEvents, sqlSimulatedEvents } from './simulated-event-store';

function simulatedAcquirer(config: Config, sql: RunSql | undefined): Acquirer {
  const store = sql ? sqlSimulatedEvents(sql) : memorySimulatedEvents();
  const processor = new SimulatedAcquirer(config.simulatedAcquirerDelayMs, config.simulatedRefundDelayMs, sql ? sqlRecords(sql) : memoryRecords(), { store, delayMs: config.simulatedEventDelayMs });
  // Its events are its own: scheduled into its inbox as it charges and refunds, so it has no endpoint.
  return { processor, inbox: store, endpoint: null };
}

/**
 * CARD_PROCESSOR names the adapter; another acquirer is one more entry (the key list is the config's allowed values):
 * its folder's factory, giving the port both ways (docs/architecture.md, "Adding an acquirer").
 */
const ADAPTERS: Record<Config['cardProcessor'], (config: Config, sql: RunSql | undefined, baseUrl: string | undefined) => Acquirer> = {
  simulated: simulatedAcquirer,
  adyen: adyenAcquirer,
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
export function createAcquirer(config: Config, sql?: RunSql, baseUrl?: string): Acquirer {
  return ADAPTERS[config.cardProcessor](config, sql, baseUrl);
}
