import type Queue from 'bull';
import type { Config } from '../../shared/config';
import type { Logger } from '../../shared/logger';
import { bullPrefix, connectBullClient, nameWorkerQuietly, type Redis } from '../../shared/redis';
import { withinTime } from '../../shared/within-time';
import { currentTraceparent } from '../observability/tracing';
import { startOutbox, type OutboxUse } from './outbox';
import type { CommitSignal } from './wake-on-commit';

const ADD_TIMEOUT_MS = 5000;
/**
 * The column a store's `due` selects as `handed_over_at` (ms since the epoch, a float8 so the driver answers a
 * number): from the relay's marks on the row, `enqueued_attempt` and `enqueued_at`, when this attempt was handed over before.
 */
export const HANDED_OVER_AT_SQL = `case when "enqueued_attempt" = "attempt_count" then floor(extract(epoch from "enqueued_at") * 1000)::float8 end as handed_over_at`;

/** At most this many rows handed over by one claim. */
const HAND_OVER_BATCH = 500;
/** A relay with no successful pass for three poll intervals and this is stuck or failing (readiness says so). */
const RELAY_STALE_MARGIN_MS = 20_000;

/** A row whose next attempt is due: attempt number `attemptCount + 1`. */
export interface DueAttempt {
  id: string;
  attemptCount: number;
  /** With tracing on: the W3C traceparent the row was written under, which the attempt continues. */
  traceparent?: string | null;
  /** When this attempt was put on the queue before (ms since the epoch), if it was and no worker claimed it since. */
  handedOverAt?: number | null;
}

/**
 * The job of a row's attempt: `row-attempt`, so two relays, or a relay and a retry scheduled by a worker, make one
 * job, and a row handed over again a lease later makes none while its job still waits its turn (a backlog longer
 * than the lease must not fill the queue with copies). Only a job sitting in bull's active list with its row
 * unclaimed a lease after it went on is stuck: a worker took it and is gone, such as one whose Redis master died as
 * it took the job, which bull's stalled check frees only after a minute or more, and meanwhile bull ignores an id
 * it still holds. That row goes on again under a job id of its own; the copy is harmless, as only one worker can
 * claim an attempt.
 */
function attemptJobId(due: DueAttempt, activeJobIds: readonly string[]): string {
  const job = `${due.id}-${due.attemptCount}`;
  if (due.handedOverAt == null) return job;
  const stuck = activeJobIds.some((active) => active === job || active.startsWith(`${job}-`));
  return stuck ? `${job}-${due.handedOverAt}` : job;
}

/**
 * An outbox whose attempts are made by workers, each claiming its attempt with its own lease (the webhook deliveries,
 * the mails). With Redis a relay hands due rows to a bull queue, whose job id is the row and its attempt number (two
 * relays, or a relay and a worker scheduling a retry, make one job), and with `deliver` this process's workers take
 * the jobs; without Redis it hands them to workers in this process. The queue is only a transport: PostgreSQL holds
 * what is due, and Redis can be replaced empty.
 */
export interface AttemptRelayUse<EM> extends Pick<OutboxUse<DueAttempt>, 'logger'> {
  /** The ORM whose units of work the store's statements run in, and whose transactions mark the signal. */
  orm: NonNullable<OutboxUse<DueAttempt>['orm']> & { em: { fork(): EM } };
  /** REDIS_URL (none: no queue) and REDIS_KEY_PREFIX. */
  config: Pick<Config, 'redisUrl' | 'redisKeyPrefix'>;
  /** Whether this process's workers make attempts; a relay without Redis runs only with them. */
  deliver: boolean;
  /**
   * The poll (the sweep interval), how many attempts this process's workers make at once, and how long a claimed
   * attempt belongs to its worker (a row handed to the queue is handed over again after it).
   */
  settings: { pollIntervalMs: number; workerConcurrency: number; leaseMs: number };
  statements: RelayStatements<EM>;
  /** What the logs call it (`webhook`, `mail`), and the bull queue's name and the job's field naming the row, as they stand in Redis. */
  names: { of: string; queue: string; jobField: string; redisProblemNote?: string };
  /** One attempt: claims it under its lease, makes it, records the outcome. */
  attempt(id: string, attemptCount: number, traceparent: string | null | undefined): Promise<unknown>;
  /** Logs an attempt that threw in an in-process worker (its lease runs out and it is tried again). */
  failedToRun(id: string, error: string): void;
}

/** The owning module's statements and signal, kept in its store. */
export interface RelayStatements<EM> {
  /** Raised when rows were written. */
  signal: CommitSignal;
  /**
   * Up to `limit` rows due for an attempt, most overdue first. With `requeueAfterMs` (the queue), a row handed over
   * for this attempt is left out unless that was longer ago, and then comes with `handedOverAt`.
   */
  due(em: EM, limit: number, requeueAfterMs: number | null): Promise<DueAttempt[]>;
  /** Notes the rows put on the queue, per row and attempt, so the next pass does not put them there again. */
  markHandedOver(em: EM, due: DueAttempt[]): Promise<void>;
}

/** What a runtime of attempt workers offers its process. */
export interface AttemptRuntime {
  /** Look for due rows now (after an admin's re-send): raises the signal, which every relay of the process listens to. */
  wake(): void;
  /** For readiness: a pass succeeded within three poll intervals and 20 s, and the queue workers still take jobs; null when this process runs no relay. */
  alive(): boolean | null;
  /** The bull queue (none without Redis), for the admins' queue dashboard. */
  queues: Queue.Queue[];
  /** Stops the relay, then lets attempts in flight finish (up to the lease); before closing the database. */
  stop(): Promise<void>;
}

export interface AttemptRelay extends AttemptRuntime {
  /** With the queue: a retry scheduled by an attempt, carried as a delayed job (best effort: the relay is the backstop). */
  retryScheduled?(id: string, attemptCount: number, at: Date): void;
}

/** Where the relay hands due rows: the bull queue, or (without Redis) this process's own workers. */
interface Dispatcher {
  /** How many rows it can take now (0 while Redis is unreachable or every worker is busy). */
  capacity(): number;
  /** Queue mode: skip rows already handed over for this attempt, unless that was this long ago (the job may be lost). */
  requeueAfterMs?: number;
  /** Ids being worked on here, not to be handed over again. */
  busy?(): string[];
  dispatch(due: DueAttempt[]): Promise<void>;
}

export function startAttemptRelay<EM>(use: AttemptRelayUse<EM>): AttemptRelay {
  const { logger } = use;
  let dispatcher: Dispatcher | null = null;
  const queues: Queue.Queue[] = [];
  let retryScheduled: AttemptRelay['retryScheduled'];
  let stopQueue = async () => {};
  let idle = async () => {};
  let workersTakeJobs = () => true;
  let freed = () => {};
  const { signal } = use.statements;
  const wake = () => signal.raise();
  if (use.config.redisUrl) {
    const queue = openAttemptQueue({ url: use.config.redisUrl, keyPrefix: use.config.redisKeyPrefix }, use.names, logger);
    queues.push(queue.bull);
    retryScheduled = (id, attemptCount, at) => {
      // Called in the attempt's span: the retry continues its trace.
      if (queue.ready()) queue.add([{ id, attemptCount, traceparent: currentTraceparent() }], at.getTime() - Date.now()).catch(() => undefined);
    };
    if (use.deliver) queue.process(use.settings.workerConcurrency, (job) => use.attempt(job.id, job.attemptCount, job.traceparent));
    workersTakeJobs = () => !use.deliver || queue.processing();
    dispatcher = {
      capacity: () => (queue.ready() ? HAND_OVER_BATCH : 0),
      requeueAfterMs: use.settings.leaseMs,
      async dispatch(due) {
        await queue.add(due);
        await use.statements.markHandedOver(use.orm.em.fork(), due);
      },
    };
    stopQueue = () => queue.close(use.settings.leaseMs);
  } else if (use.deliver) {
    const workers = inProcessWorkers(use, () => freed());
    dispatcher = workers;
    idle = workers.idle;
  }
  if (!dispatcher) return { wake, alive: () => null, queues, async stop() {} };

  const hand = dispatcher;
  const relay = startOutbox<DueAttempt>({
    orm: use.orm,
    logger,
    signal,
    passFailed: `${use.names.of} relay pass failed; retrying at the next tick`,
    sweepMs: use.settings.pollIntervalMs,
    batch: () => Math.min(hand.capacity(), HAND_OVER_BATCH),
    claim: (limit) => dueFor(use, limit, hand.requeueAfterMs ?? null, hand.busy?.() ?? []),
    async handle(due) {
      await hand.dispatch(due);
      return due.length;
    },
  });
  freed = () => void relay.drain().catch(() => undefined);
  const staleAfterMs = 3 * use.settings.pollIntervalMs + RELAY_STALE_MARGIN_MS;
  return {
    wake,
    alive: () => Date.now() - relay.lastPassAt() <= staleAfterMs && workersTakeJobs(),
    queues,
    retryScheduled,
    async stop() {
      await relay.stop();
      await stopQueue();
      await idle();
    },
  };
}

/** Up to `limit` due rows, leaving out those this process's workers are on (asked for that many more). */
async function dueFor<EM>(use: AttemptRelayUse<EM>, limit: number, requeueAfterMs: number | null, busy: string[]): Promise<DueAttempt[]> {
  const rows = await use.statements.due(use.orm.em.fork(), limit + busy.length, requeueAfterMs);
  const working = new Set(busy);
  return rows.filter((row) => !working.has(row.id)).slice(0, limit);
}

/** Without Redis: up to `concurrency` attempts at once in this process, each finished one letting the relay fill its slot. */
function inProcessWorkers<EM>(use: AttemptRelayUse<EM>, freed: () => void): Dispatcher & { idle(): Promise<void> } {
  const inFlight = new Map<string, Promise<void>>();
  return {
    capacity: () => use.settings.workerConcurrency - inFlight.size,
    busy: () => [...inFlight.keys()],
    async dispatch(due) {
      for (const { id, attemptCount, traceparent } of due) {
        const work = use
          .attempt(id, attemptCount, traceparent)
          .then(() => undefined)
          .catch((error) => use.failedToRun(id, (error as Error).message))
          .finally(() => {
            inFlight.delete(id);
            freed();
          });
        inFlight.set(id, work);
      }
    },
    async idle() {
      await Promise.all(inFlight.values());
    },
  };
}

interface AttemptJob {
  id: string;
  attemptCount: number;
  traceparent?: string | null;
}

/**
 * The bull queue of "make this attempt now" jobs. Keys live under REDIS_KEY_PREFIX (bull's `prefix`, a hash tag on a
 * cluster). Finished jobs are removed: PostgreSQL keeps the history.
 */
function openAttemptQueue(redis: { url: string; keyPrefix: string }, names: AttemptRelayUse<unknown>['names'], logger: Logger) {
  const clients: Redis[] = [];
  // Loaded here, with Redis only: without it the relay polls the table, and bull is never needed.
  const queue = new (require('bull') as typeof Queue)<Record<string, unknown>>(names.queue, {
    prefix: bullPrefix(redis.url, `${redis.keyPrefix}bull`),
    createClient: () => {
      const client = connectBullClient(redis.url);
      client.on('error', () => undefined); // reported once below, through the queue's own error event
      clients.push(client);
      return client;
    },
    settings: { maxStalledCount: 5, retryProcessDelay: 1000 },
    defaultJobOptions: { removeOnComplete: true, removeOnFail: true, attempts: 1 },
  });
  let lastError = '';
  let stoppedProcessing = false;
  queue.on('error', (error) => {
    if (error.message !== lastError) logger.warn({ err: error.message }, `${names.of} queue: redis problem${names.redisProblemNote ?? ''}`);
    lastError = error.message;
  });
  const jobOf = (data: Record<string, unknown>): AttemptJob => ({
    id: data[names.jobField] as string,
    attemptCount: data.attemptCount as number,
    traceparent: data.traceparent as string | undefined,
  });

  const addJobs = async (due: DueAttempt[], delayMs: number) => {
    // Handed over before: whose jobs sit in the active list (a short list: the jobs being worked on).
    const active = due.some((d) => d.handedOverAt != null) ? await queue.client.lrange(queue.toKey('active'), 0, -1) : [];
    const jobs = due.map((d) => ({
      // With tracing on, the trace context rides in the job's data (W3C traceparent).
      data: { [names.jobField]: d.id, attemptCount: d.attemptCount, ...(d.traceparent ? { traceparent: d.traceparent } : {}) },
      opts: { jobId: attemptJobId(d, active), delay: delayMs > 0 ? delayMs : undefined },
    }));
    await queue.addBulk(jobs);
  };

  return {
    bull: queue,
    /** True while Redis answers; the relay hands nothing over otherwise (rows wait in PostgreSQL). */
    ready: () => queue.client.status === 'ready',
    async add(due: DueAttempt[], delayMs = 0) {
      // Redis may drop mid-call; bull would then wait for it. Give up instead: nothing is lost, the relay adds it again.
      await withinTime(addJobs(due, delayMs), ADD_TIMEOUT_MS, 'redis did not answer in time');
    },
    process(concurrency: number, handler: (job: AttemptJob) => Promise<unknown>) {
      nameWorkerQuietly(queue);
      void queue.process(concurrency, (job) => handler(jobOf(job.data))).catch((error) => {
        stoppedProcessing = true;
        // bull rejects with undefined when the queue is closed while its worker still sets up.
        logger.error({ err: error instanceof Error ? error.message : String(error) }, `${names.of} queue: processing stopped`);
      });
    },
    /** False once the workers' processing loop has stopped on an error (readiness reports it). */
    processing: () => !stoppedProcessing,
    async close(timeoutMs: number) {
      await Promise.race([queue.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
      for (const client of clients) client.disconnect();
    },
  };
}
