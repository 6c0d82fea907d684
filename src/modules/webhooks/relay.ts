import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { outsideTraces } from '../../platform/observability/tracing';
import type { Logger } from '../../shared/logger';
import { dueDeliveries } from './outbox-store';

/** A delivery whose next attempt is due: attempt number `attemptCount + 1`. */
export interface DueDelivery {
  id: string;
  attemptCount: number;
  /** With tracing on: the W3C traceparent its event was written under, which the attempt continues. */
  traceparent?: string | null;
}

/** Where the relay hands due deliveries: the bull queue, or (without Redis) this process's own workers. */
export interface Dispatcher {
  /** How many deliveries it can take now (0 while Redis is unreachable or every worker is busy). */
  capacity(): number;
  /** Queue mode: skip deliveries already handed over for this attempt, unless that was this long ago (the job may be lost). */
  requeueAfterMs?: number;
  /** Ids being worked on here, not to be handed over again. */
  busy?(): string[];
  dispatch(due: DueDelivery[], em: EntityManager): Promise<void>;
}

export interface Relay {
  /** Look now (a delivery was just written or re-sent), not at the next tick. */
  wake(): void;
  /** When the last pass that did not fail ended, in ms since the epoch: the relay's heartbeat, for readiness. */
  lastPassAt(): number;
  stop(): Promise<void>;
}

/**
 * Moves due deliveries from PostgreSQL to their dispatcher: at start, every `intervalMs`, and when
 * woken. Any number of relays may run (each service and worker process has one): the queue's job ids
 * and the delivery's conditional claim make a second hand-over harmless.
 */
export function startRelay(orm: MikroORM, dispatcher: Dispatcher, intervalMs: number, logger: Logger): Relay {
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let lastProblem = '';
  let lastPassAt = Date.now();

  const pass = async (): Promise<boolean> => {
    const limit = Math.min(dispatcher.capacity(), 500);
    if (limit <= 0) return false;
    const em = orm.em.fork();
    const due = await dueDeliveriesFor(em, limit, dispatcher.requeueAfterMs ?? null, dispatcher.busy?.() ?? []);
    if (due.length > 0) await dispatcher.dispatch(due, em);
    return due.length === limit;
  };

  const run = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    // Woken by a request, the pass is still no part of its trace: each delivery carries its event's (DueDelivery).
    running = outsideTraces(async () => {
      try {
        do {
          again = false;
          if (await pass()) again = true;
        } while (again && !stopped);
        lastProblem = '';
        lastPassAt = Date.now();
      } catch (error) {
        // Once per distinct problem, not once per tick, while the database or Redis is away.
        const problem = (error as Error).message;
        if (problem !== lastProblem) logger.warn({ err: problem }, 'webhook relay pass failed; retrying at the next tick');
        lastProblem = problem;
      } finally {
        running = null;
        if (!stopped) timer = setTimeout(run, intervalMs);
      }
    });
  };

  run();
  return {
    wake: run,
    lastPassAt: () => lastPassAt,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** Up to `limit` due deliveries, leaving out those this process's workers are on (asked for that many more). */
async function dueDeliveriesFor(em: EntityManager, limit: number, requeueAfterMs: number | null, busy: string[]): Promise<DueDelivery[]> {
  const rows = await dueDeliveries(em, limit + busy.length, requeueAfterMs);
  const working = new Set(busy);
  return rows.filter((row) => !working.has(row.id)).slice(0, limit);
}
