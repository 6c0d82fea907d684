import type { Config } from '../shared/config';
import type { CardProcessor } from './card-processor';
import { SimulatedAcquirer } from './simulated-acquirer';

/** CARD_PROCESSOR names the adapter; another acquirer is one more entry (the key list is the config's allowed values). */
const ADAPTERS: Record<Config['cardProcessor'], (config: Config) => CardProcessor> = {
  simulated: (config) => new SimulatedAcquirer(config.simulatedAcquirerDelayMs, config.simulatedRefundDelayMs),
};

export function createCardProcessor(config: Config): CardProcessor {
  return ADAPTERS[config.cardProcessor](config);
}
