import type Bull from 'bull';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { CardProcessor } from '../../platform/processor/card-processor';
import { bullPrefix, connectBullClient, nameWorkerQuietly, type Redis } from '../../shared/redis';
import { type ChargebackCheck, type DisputeReweigh, executeRefund, refundsNeedingExecution, type RefundSendingDeps } from './refund.service';
import { remindStaleRefundReviews } from './refund-review-reminders';
import { approveLiveTestRefund } from './live-test-refund';
import { liveTestsAwaitingRefund } from './refund-store';

/** How approved refunds get carried out: right after approval, and by a periodic sweep that misses nothing. */
export interface RefundJobs {
  /** Asks for `refundId` to be carried out soon; never throws (the sweep is the safety net). */
  enqueue(refundId: string): void;
  /** Approves the automatic refund of a live test that just completed and carries it out soon; never throws (the sweep is the safety net). */
  refundLiveTest(paymentId: string): void;
  /** One pass of the sweep: approves the automatic refund of every completed live test still without one, carries out every approved refund still waiting and every stale claim (answers how many were refunded), and reminds finance of requests nearing the 24-hour review promise. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
  /** The bull queue (none without Redis), for the admins' queue dashboard. */
  queues: Bull.Queue[];
  /** Disputes' answer, as handed in: refund requests and approvals check it too. */
  chargebackStands: ChargebackCheck;
  /** Disputes' share weighing, as handed in, for every refund move. */
  reweighDisputes: DisputeReweigh;
}

export interface RefundJobsOptions {
  orm: MikroORM;
  processor: CardProcessor;
  logger: Logger;
  /** Unset: jobs run in this process. */
  redisUrl: string | undefined;
  /** REDIS_KEY_PREFIX: the bull queue lives under it, so deployments and test runs do not collide. */
  redisKeyPrefix: string;
  sweepIntervalMs: number;
  processingTimeoutMs: number;
  /** The public base URL, for the payment payload of refund webhook events. */
  baseUrl: string;
  /** Whether a chargeback stands against a payment (disputes' chargebackStands). */
  chargebackStands: ChargebackCheck;
  /** A refund settled, failed or was reversed: disputes weigh the seller's share again (disputes' reweighDisputes). */
  reweighDisputes: DisputeReweigh;
}

const QUEUE_NAME = 'refunds';
const CONCURRENCY = 4;

/**
 * With Redis, approval adds a bull job whose id is the refund id (so a refund is queued once), and any
 * instance's worker takes it. Without Redis the job runs in this process. Either way a sweep runs every
 * REFUND_SWEEP_INTERVAL_MS in every instance and picks up approved refunds that no job carried out (a crash
 * after approval, Redis away) and `processing` claims older than REFUND_PROCESSING_TIMEOUT_MS. Execution
 * is idempotent (conditional claims), so a job, a sweep and a retry may meet: one of them wins.
 */
export function startRefundJobs(options: RefundJobsOptions): RefundJobs {
  const { orm, logger, chargebackStands, reweighDisputes } = options;
  const deps: RefundSendingDeps = { processor: options.processor, logger, processingTimeoutMs: options.processingTimeoutMs, baseUrl: options.baseUrl, chargebackStands, reweighDisputes };
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  };
  const execute = (refundId: string) =>
    track(executeRefund(orm.em.fork(), deps, refundId)).catch((err: Error) => {
      logger.error({ refundId, err }, 'refund job failed; the sweep will try again');
      throw err;
    });

  // Clients made through `createClient` are ours to close (bull closes only the ones it made itself).
  const clients: Redis[] = [];
  const trackClient = (client: Redis) => (clients.push(client), client);
  // bull is loaded only with Redis: without it, the sweep alone carries refunds out.
  const queue = options.redisUrl
    ? new (require('bull') as typeof Bull)<{ refundId: string }>(QUEUE_NAME, {
        prefix: bullPrefix(options.redisUrl, options.redisKeyPrefix),
        createClient: () => trackClient(connectBullClient(options.redisUrl!)),
        defaultJobOptions: { removeOnComplete: true, removeOnFail: 100, attempts: 3, backoff: { type: 'exponential', delay: 1000 } },
      })
    : null;
  if (queue) {
    queue.on('error', (err) => logger.warn({ err: err.message }, 'refund queue: redis problem (the sweep still runs)'));
    // Rejects when Redis cannot be reached as the worker sets up (or with undefined when closed meanwhile); an
    // unhandled rejection would end the process, and the sweep carries out approved refunds without the queue.
    nameWorkerQuietly(queue);
    void queue.process(CONCURRENCY, (job) => execute(job.data.refundId)).catch((error) => {
      logger.error({ err: error instanceof Error ? error.message : String(error) }, 'refund queue: processing stopped (the sweep still runs)');
    });
  }

  const approveLiveTest = (paymentId: string) =>
    track(approveLiveTestRefund(orm.em.fork(), paymentId)).catch((err: Error) => {
      logger.error({ paymentId, err }, 'live test refund not approved; the sweep will try again');
      return null;
    });

  let sweeping: Promise<number> | null = null;
  const sweep = () => {
    sweeping ??= track(
      (async () => {
        // Live tests whose completion's hand-off was lost get their refund first, so this pass carries it out.
        for (const paymentId of await liveTestsAwaitingRefund(orm.em.fork())) await approveLiveTest(paymentId);
        const ids = await refundsNeedingExecution(orm.em.fork(), options.processingTimeoutMs);
        let done = 0;
        for (const id of ids) if ((await execute(id).catch(() => 'error')) === 'refunded') done++;
        // Requests nearing the 24-hour review promise: finance is mailed once per request (refund-review-reminders.ts).
        const reminded = await remindStaleRefundReviews(orm.em.fork()).catch((err: Error) => {
          logger.warn({ err: err.message }, 'refund review reminders failed; trying again at the next sweep');
          return 0;
        });
        if (reminded > 0) logger.info({ reminded }, 'finance reminded of refund requests nearing the 24-hour review promise');
        return done;
      })(),
    ).finally(() => (sweeping = null));
    return sweeping;
  };
  const timer = setInterval(() => sweep().catch((err: Error) => logger.warn({ err: err.message }, 'refund sweep failed')), options.sweepIntervalMs);
  timer.unref();

  const enqueue = (refundId: string) => {
    if (!queue) {
      setImmediate(() => execute(refundId).catch(() => undefined));
      return;
    }
    queue.add({ refundId }, { jobId: refundId }).catch((err: Error) => {
      logger.warn({ refundId, err: err.message }, 'could not queue the refund; the sweep will carry it out');
    });
  };

  return {
    queues: queue ? [queue] : [],
    chargebackStands,
    reweighDisputes,
    enqueue,
    refundLiveTest(paymentId) {
      void approveLiveTest(paymentId).then((refundId) => {
        if (!refundId) return;
        logger.info({ paymentId, refundId }, 'live test refund approved automatically');
        enqueue(refundId);
      });
    },
    sweep,
    async stop() {
      clearInterval(timer);
      if (queue) await queue.close().catch(() => undefined);
      for (const client of clients) client.disconnect();
      await Promise.allSettled([...inFlight]);
    },
  };
}
