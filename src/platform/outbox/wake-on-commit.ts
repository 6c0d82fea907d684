import type { EntityManager, EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';

/**
 * The one way an outbox is woken: a signal raised when what wrote its rows commits, so the outbox takes them at once
 * rather than at its next sweep. A write inside a transaction marks the transaction; the signal is raised when that
 * transaction commits, and forgotten when it rolls back. A statement that committed on its own raises it directly;
 * a row written to fall due later raises it with how long until then.
 *
 * The mark goes on the outermost transaction: MikroORM runs its commit hooks only for that one, and a nested
 * transaction (a move inside a caller's transaction) is only a savepoint. Outside any transaction it goes on the
 * entity manager, whose flush writes the row in a transaction of its own.
 */
export interface CommitSignal {
  /** Raise the signal when the outermost transaction around `tx` commits. */
  markWrittenIn(tx: EntityManager): void;
  /** Raise it now: for a statement that committed on its own, which no commit hook sees; `dueInMs` when its row falls due later. */
  raise(dueInMs?: number): void;
  /** Calls `listener` at every raise until the answer is called (an outbox's stop). */
  listen(listener: (dueInMs: number) => void): () => void;
  /** The commit hook: registered on the ORM whose transactions are marked. */
  subscriber: EventSubscriber;
}

export function commitSignal(): CommitSignal {
  const listeners = new Set<(dueInMs: number) => void>();
  const marked = new WeakSet<object>();
  const raise = (dueInMs = 0) => {
    for (const listener of listeners) listener(dueInMs);
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
