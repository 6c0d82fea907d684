import type { EntityManager } from '@mikro-orm/postgresql';
import type { CommitSignal } from '../../src/platform/outbox/wake-on-commit';

export interface Wakes {
  /** How often the signal was raised since this test began (or since `reset`). */
  readonly count: number;
  reset(): void;
  /** Stops listening for the rest of this test. */
  stop(): void;
}

/**
 * Counts the raises of an outbox's commit signal in each test of the calling block: the signal's hook is registered on
 * the suite's ORM as a relay's runtime registers it, and a listener stands in for the relay.
 */
export function countWakes(em: () => EntityManager, signal: CommitSignal): Wakes {
  let count = 0;
  let stopListening = () => {};
  beforeAll(() => em().getEventManager().registerSubscriber(signal.subscriber));
  beforeEach(() => {
    count = 0;
    stopListening = signal.listen(() => count++);
  });
  afterEach(() => stopListening());
  return {
    get count() {
      return count;
    },
    reset() {
      count = 0;
    },
    stop() {
      stopListening();
    },
  };
}
