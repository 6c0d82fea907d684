import type { EntityManager, EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';

/**
 * A signal raised when a transaction that wrote an outbox row commits, so a relay sends the row at once rather
 * than at its next poll (the webhook deliveries, the mails). A write marks the transaction it went into; the
 * signal is raised when that transaction commits, and forgotten when it rolls back.
 *
 * The mark goes on the outermost transaction: MikroORM runs its commit hooks only for that one, and a nested
 * transaction (a move inside a caller's transaction) is only a savepoint. Outside any transaction it goes on the
 * entity manager, whose flush writes the row in a transaction of its own.
 */
export interface CommitSignal {
  /** Raise the signal when the outermost transaction around `tx` commits. */
  markWrittenIn(tx: EntityManager): void;
  /** Raise it now: for a statement that committed on its own, which no commit hook sees. */
  raise(): void;
  /** Calls `listener` at every raise until the answer is called (a runtime's stop). */
  listen(listener: () => void): () => void;
  /** The commit hook: register it on the ORM whose transactions are marked. */
  subscriber: EventSubscriber;
}

export function commitSignal(): CommitSignal {
  const listeners = new Set<() => void>();
  const marked = new WeakSet<object>();
  const raise = () => {
    for (const listener of listeners) listener();
  };
  /** Whether the ended transaction (or the entity manager that ran it) was marked; unmarks both. */
  const forget = ({ transaction, em }: TransactionEventArgs): boolean => {
    const byTransaction = transaction !== undefined && marked.delete(transaction as object);
    const byManager = marked.delete(em);
    return byTransaction || byManager;
  };
  return {
    markWrittenIn(tx) {
      let transaction = tx.getTransactionContext<{ parentTransaction?: object }>();
      while (transaction?.parentTransaction) transaction = transaction.parentTransaction;
      marked.add(transaction ?? tx);
    },
    raise,
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    subscriber: {
      afterTransactionCommit: (args) => {
        if (forget(args)) raise();
      },
      afterTransactionRollback: (args) => {
        forget(args);
      },
    },
  };
}
