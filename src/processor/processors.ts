import type { Config } from '../shared/config';
import type { CardProcessor } from './card-processor';
import { SimulatedAcquirer } from './simulated-acquirer';
import { memoryRecords, type RunSql, sqlRecords } from './simulator-records';

/** CARD_PROCESSOR names the adapter; another acquirer is one more entry (the key list is the config's allowed values). */
const ADAPTERS: Record<Config['cardProcessor'], (config: Config, sql: RunSql | undefined) => CardProcessor> = {
  simulated: (config, sql) => new SimulatedAcquirer(config.simulatedAcquirerDelayMs, config.simulatedRefundDelayMs, sql ? sqlRecords(sql) : memoryRecords()),
};

/** `sql` runs statements on the service's database; the simulator keeps its records there (docs/checkout.md). */
export function createCardProcessor(config: Config, sql?: RunSql): CardProcessor {
  return ADAPTERS[config.cardProcessor](config, sql);
}
