import type { EntityManager, EventSubscriber } from '@mikro-orm/core';
import { commitSignal } from '../../platform/db/commit-signal';

/**
 * The relay's one wake-up: deliveries just committed in this process are due now, so the first attempt goes out at
 * once rather than at the next poll. Raised when the transaction `emit` wrote a delivery into commits, and by the
 * card completion, whose one statement (committed when it returns) no commit hook sees. Every relay of the
 * process listens while its runtime runs; waking one that finds nothing is a cheap read. Deliveries written by
 * other processes are found by the relay's poll.
 */
const DELIVERIES_COMMITTED = commitSignal();

export const deliveriesCommitted = (): void => DELIVERIES_COMMITTED.raise();

/** Listens for deliveriesCommitted until the answer is called (a runtime's stop). */
export const onDeliveriesCommitted = (listener: () => void): (() => void) => DELIVERIES_COMMITTED.listen(listener);

/** What `emit` calls on the transaction it wrote a delivery into. */
export const deliveryWrittenIn = (tx: EntityManager): void => DELIVERIES_COMMITTED.markWrittenIn(tx);

/** The commit hook: raises deliveriesCommitted when a transaction `emit` wrote a delivery into commits. */
export const WAKE_ON_COMMIT: EventSubscriber = DELIVERIES_COMMITTED.subscriber;
