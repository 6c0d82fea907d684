import type { EventSubscriber } from '@mikro-orm/core';
import { outsideTraces } from '../observability/tracing';
import type { Logger } from '../../shared/logger';
import type { CommitSignal } from './wake-on-commit';

/**
 * The outbox engine: every table of work written in one transaction and done afterwards (webhook deliveries, mails,
 * the acquirer's notifications, the simulator's events) is drained by it. A use declares only what differs: its
 * store's statements (claim, finish, retry: the owning module keeps its tables) and what one attempt does.
 *
 * A pass claims up to a batch of due rows and hands them on, and runs again while work remains (a full batch, or,
 * where handling rows frees others, any row at all). Passes run at start, when the use's signal is raised (its
 * writes committed: wake-on-commit.ts), and one sweep interval after the last pass, for rows another process wrote
 * or that fell due while nothing ran. One pass at a time: a wake during a pass makes it run again. Any number of
 * processes may drain one table: the claim (FOR UPDATE SKIP LOCKED, or a conditional UPDATE, with a lease and the
 * attempt counted) decides who works on a row.
 */
export interface OutboxUse<Row> {
  /** Logged, once per distinct problem, when a pass fails (the database or Redis is away). */
  passFailed: string;
  /** Raised when rows of this outbox were written. */
  signal: CommitSignal;
  /** The ORM whose transactions mark the signal; none when only statements that commit on their own raise it. */
  orm?: { em: { getEventManager(): { registerSubscriber(subscriber: EventSubscriber): void } } };
  /** The sweep: at most this long between two passes. */
  sweepMs: number;
  /** How many rows one claim may take now; 0 takes none (every worker busy, the queue away). */
  batch(): number;
  /** Up to `limit` due rows, claimed (the owning module's store statement). */
  claim(limit: number): Promise<Row[]>;
  /** Does what is due with the rows claimed; answers how many were settled. */
  handle(rows: Row[]): Promise<number>;
  /** Handling a row can make another due (an applied item frees the next of its payment): look again after any row. */
  handlingFreesRows?: boolean;
  logger: Logger;
}

export interface Outbox {
  /** Runs a pass now (or once more after the one in flight); how many rows it settled. Rejects when the pass failed. */
  drain(): Promise<number>;
  /** When the last pass that did not fail ended, in ms since the epoch: the heartbeat readiness reads. */
  lastPassAt(): number;
  /** No further pass; waits for the one in flight. */
  stop(): Promise<void>;
}

export function startOutbox<Row>(use: OutboxUse<Row>): Outbox {
  const { logger } = use;
  let stopped = false;
  let running: Promise<number> | null = null;
  let again = false;
  let sweep: NodeJS.Timeout | undefined;
  const later = new Set<NodeJS.Timeout>();
  let lastProblem = '';
  let lastPassAt = Date.now();
  let settled = 0;

  const pass = async (): Promise<boolean> => {
    const limit = use.batch();
    if (limit <= 0) return false;
    const rows = await use.claim(limit);
    if (rows.length > 0) settled += await use.handle(rows);
    return rows.length === limit || (use.handlingFreesRows === true && rows.length > 0);
  };

  const run = (): Promise<number> => {
    if (stopped) return Promise.resolve(0);
    if (running) {
      again = true;
      return running;
    }
    clearTimeout(sweep);
    settled = 0;
    // Woken by a request, the pass is still no part of its trace: what a row carries is continued by its attempt.
    running = outsideTraces(async () => {
      try {
        do {
          again = false;
          if (await pass()) again = true;
        } while (again && !stopped);
        lastProblem = '';
        lastPassAt = Date.now();
        return settled;
      } catch (error) {
        const problem = (error as Error).message;
        if (problem !== lastProblem) logger.warn({ err: problem }, use.passFailed);
        lastProblem = problem;
        throw error;
      } finally {
        running = null;
        if (!stopped) sweep = setTimeout(wake, use.sweepMs);
      }
    });
    return running;
  };
  const wake = (): void => void run().catch(() => undefined);

  // One hook per ORM however many outboxes share it (the event manager keeps a subscriber once); it outlives a
  // stopped outbox, which MikroORM cannot unregister, but wakes only the outboxes still listening.
  use.orm?.em.getEventManager().registerSubscriber(use.signal.subscriber);
  const stopListening = use.signal.listen((dueInMs) => {
    if (dueInMs <= 0) return wake();
    const timer = setTimeout(() => {
      later.delete(timer);
      wake();
    }, dueInMs);
    timer.unref();
    later.add(timer);
  });

  wake();
  return {
    drain: run,
    lastPassAt: () => lastPassAt,
    async stop() {
      stopped = true;
      stopListening();
      clearTimeout(sweep);
      for (const timer of later) clearTimeout(timer);
      later.clear();
      await running?.catch(() => undefined);
    },
  };
}

/** Exponential back-off: `firstMs` after the first failed attempt, doubling, at most `maxMs`, lengthened by up to `jitter` (0.2: 20%). */
export interface BackOff {
  firstMs: number;
  maxMs: number;
  jitter?: number;
}

/** The wait after failed attempt number `attempts` (1 = the first); jitter only lengthens it, so a schedule never ends sooner. */
export function backOffMs({ firstMs, maxMs, jitter = 0 }: BackOff, attempts: number, random: () => number = Math.random): number {
  const nominal = Math.min(firstMs * 2 ** Math.max(0, attempts - 1), maxMs);
  return jitter > 0 ? nominal * (1 + jitter * random()) : nominal;
}

/** A claimed row whose attempt is made in the pass itself: its attempt count includes this one. */
export interface AttemptedRow {
  attempts: number;
}

/** What a use does with each row, in turn, for `handle`; a throw is retried on `retry`'s schedule. */
export interface RowAttempts<Row extends AttemptedRow> {
  /** Makes the attempt and records its outcome (the store's finish statement); answers the outcome and whether the row is settled. */
  attempt(row: Row): Promise<{ outcome: string; settled: boolean }>;
  /** The back-off after an attempt that threw. */
  retry: BackOff;
  /** The store's retry statement: due again after `delayMs`. */
  retryLater(row: Row, error: string, delayMs: number): Promise<void>;
  /** Logs an attempt that threw (it is tried again). */
  failed(row: Row, error: string): void;
  /** Counts each attempt's outcome; `retry` for one that threw. */
  observe?(row: Row, outcome: string): void;
}

/** `handle` for rows attempted in the pass, one after the other (a payment's items in their order). */
export function eachInTurn<Row extends AttemptedRow>(use: RowAttempts<Row>): (rows: Row[]) => Promise<number> {
  return async (rows) => {
    let settled = 0;
    for (const row of rows) {
      try {
        const { outcome, settled: done } = await use.attempt(row);
        use.observe?.(row, outcome);
        if (done) settled++;
      } catch (error) {
        const message = (error as Error).message;
        await use.retryLater(row, message, backOffMs(use.retry, row.attempts)).catch(() => undefined);
        use.observe?.(row, 'retry');
        use.failed(row, message);
      }
    }
    return settled;
  };
}
