import type { EntityManager } from '@mikro-orm/core';
import type { EventArgs, EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';
import { WebhookDelivery } from './webhook-delivery.entity';

/**
 * Wakes the relay when a transaction that created a delivery through the ORM commits in this process (a
 * refund, a dispute, a withdrawal, a test delivery), so the first attempt goes out at once instead of at the
 * next poll. The card completion writes its deliveries in its one plain statement, which no subscriber sees,
 * and calls the same wake itself (checkout.service.ts). Deliveries written by other processes are found by
 * the relay's poll.
 */
export class WakeOnCommit implements EventSubscriber {
  private readonly created = new WeakSet<EntityManager>();
  private active = true;

  constructor(private readonly wake: () => void) {}

  afterCreate(args: EventArgs<unknown>): void {
    if (args.entity instanceof WebhookDelivery) this.created.add(args.em);
  }

  afterTransactionCommit(args: TransactionEventArgs): void {
    if (!this.created.has(args.em)) return;
    this.created.delete(args.em);
    if (this.active) this.wake();
  }

  afterTransactionRollback(args: TransactionEventArgs): void {
    this.created.delete(args.em);
  }

  /** MikroORM cannot unregister a subscriber; a stopped runtime's one just stays quiet. */
  deactivate(): void {
    this.active = false;
  }
}
