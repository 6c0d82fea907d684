import type { EntityManager, EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';

/**
 * The relay's one wake-up: deliveries just committed in this process are due now, so the first attempt goes out at
 * once rather than at the next poll. Raised by `emit` when the transaction it wrote a delivery into commits, and by
 * the card completion, whose one statement (committed when it returns) no subscriber sees. Every relay of the
 * process listens while its runtime runs; waking one that finds nothing is a cheap read. Deliveries written by
 * other processes are found by the relay's poll.
 */
export function deliveriesCommitted(): void {
  for (const listener of listeners) listener();
}

const listeners = new Set<() => void>();

/** Listens for deliveriesCommitted until the answer is called (a runtime's stop). */
export function onDeliveriesCommitted(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * What `emit` wrote a delivery into: the outermost transaction, since only its commit runs MikroORM's hooks and a
 * nested one (a move inside a caller's transaction) is only a savepoint; or, outside any transaction, the entity
 * manager whose flush will write it in a transaction of its own.
 */
const WRITTEN_IN = new WeakSet<object>();

export function deliveryWrittenIn(tx: EntityManager): void {
  let trx = tx.getTransactionContext<{ parentTransaction?: object }>();
  while (trx?.parentTransaction) trx = trx.parentTransaction;
  WRITTEN_IN.add(trx ?? tx);
}

/** The commit hook: raises deliveriesCommitted when a transaction `emit` wrote a delivery into commits. */
export const WAKE_ON_COMMIT: EventSubscriber = {
  afterTransactionCommit(args: TransactionEventArgs): void {
    if (forget(args)) deliveriesCommitted();
  },
  afterTransactionRollback(args: TransactionEventArgs): void {
    forget(args);
  },
};

/** Whether the ended transaction (or the entity manager that ran it) was marked; unmarks both. */
function forget({ transaction, em }: TransactionEventArgs): boolean {
  const byTransaction = transaction !== undefined && WRITTEN_IN.delete(transaction as object);
  const byManager = WRITTEN_IN.delete(em);
  return byTransaction || byManager;
}
