import Queue from 'bull';
import type { Logger } from '../../shared/logger';
import { bullPrefix, connectBullClient, nameWorkerQuietly, type Redis } from '../../shared/redis';
import type { DueDelivery, Dispatcher } from './relay';
import { markDeliveriesEnqueued } from './outbox-store';
import { withinTime } from '../../shared/within-time';

const ADD_TIMEOUT_MS = 5000;

export interface DeliveryJob {
  deliveryId: string;
  attemptCount: number;
  /** With tracing on: the W3C traceparent the attempt continues (its event's, or that of the attempt that scheduled this retry). */
  traceparent?: string | null;
}

export interface DeliveryQueue {
  /** The bull queue itself, for the admins' queue dashboard. */
  bull: Queue.Queue<DeliveryJob>;
  /** True while Redis answers; the relay hands nothing over otherwise (events wait in PostgreSQL). */
  ready(): boolean;
  add(due: DueDelivery[], delayMs?: number): Promise<void>;
  process(concurrency: number, handler: (job: DeliveryJob) => Promise<unknown>): void;
  /** False once the workers' processing loop has stopped on an error (readiness reports it). */
  processing(): boolean;
  close(timeoutMs: number): Promise<void>;
}

/**
 * The bull queue of "make this attempt now" jobs. The job id is the delivery id and the attempt number,
 * so adding the same attempt twice (two relays, a relay and a worker) makes one job. Keys live under
 * REDIS_KEY_PREFIX (bull's `prefix`, a hash tag on a cluster). Finished jobs are removed: PostgreSQL keeps the history.
 */
export function openDeliveryQueue(redisUrl: string, keyPrefix: string, logger: Logger): DeliveryQueue {
  const clients: Redis[] = [];
  const queue = new Queue<DeliveryJob>('webhook-deliveries', {
    prefix: bullPrefix(redisUrl, `${keyPrefix}bull`),
    createClient: () => {
      const client = connectBullClient(redisUrl);
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
    if (error.message !== lastError) logger.warn({ err: error.message }, 'webhook queue: redis problem');
    lastError = error.message;
  });

  return {
    bull: queue,
    ready: () => queue.client.status === 'ready',
    async add(due, delayMs = 0) {
      // With tracing on, the trace context rides in the job's data (W3C traceparent).
      const jobs = due.map((d) => ({
        data: { deliveryId: d.id, attemptCount: d.attemptCount, ...(d.traceparent ? { traceparent: d.traceparent } : {}) },
        opts: { jobId: jobIdOf(d), delay: delayMs > 0 ? delayMs : undefined },
      }));
      // Redis may drop mid-call; bull would then wait for it. Give up instead: nothing is lost, the relay adds it again.
      await withinTime(queue.addBulk(jobs), ADD_TIMEOUT_MS, 'redis did not answer in time');
    },
    process(concurrency, handler) {
      nameWorkerQuietly(queue);
      void queue.process(concurrency, (job) => handler(job.data)).catch((error) => {
        stoppedProcessing = true;
        // bull rejects with undefined when the queue is closed while its worker still sets up.
        logger.error({ err: error instanceof Error ? error.message : String(error) }, 'webhook queue: processing stopped');
      });
    },
    processing: () => !stoppedProcessing,
    async close(timeoutMs) {
      await Promise.race([queue.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
      for (const client of clients) client.disconnect();
    },
  };
}

function jobIdOf(due: DueDelivery): string {
  return `${due.id}-${due.attemptCount}`;
}

/** The relay's hand-over to bull: only while Redis answers, and noted in PostgreSQL once queued. */
export function queueDispatcher(queue: DeliveryQueue, requeueAfterMs: number): Dispatcher {
  return {
    capacity: () => (queue.ready() ? 500 : 0),
    requeueAfterMs,
    async dispatch(due, em) {
      await queue.add(due);
      await markDeliveriesEnqueued(em, due);
    },
  };
}
