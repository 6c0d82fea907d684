import Queue from 'bull';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { smtpSender } from '../../platform/mail/smtp-sender';
import type { Metrics } from '../../platform/observability/metrics';
import { continueTrace, currentTraceparent, outsideTraces } from '../../platform/observability/tracing';
import type { Config } from '../../shared/config';
import type { Logger } from '../../shared/logger';
import { bullPrefix, connectBullClient, nameWorkerQuietly, type Redis } from '../../shared/redis';
import { createSecretBox } from '../identity';
import { attemptMail, type MailDeliveryDeps } from './mail-delivery';
import { MAILS_COMMITTED } from './mail-outbox';
import { mailIdentity } from './mail-render';
import { dueMails, markMailsEnqueued } from './mail-store';
import { queueWebhookFailureNotices } from './webhook-failure-notices';
import { withinTime } from '../../shared/within-time';

/** Margin of a claim's lease beyond the SMTP waits it can take (connect, greeting, the answers). */
const LEASE_MARGIN_MS = 10_000;
const ADD_TIMEOUT_MS = 5000;
/** A relay with no successful pass for three poll intervals and this is stuck or failing (readiness says so). */
const RELAY_STALE_MARGIN_MS = 20_000;

export interface MailRuntime {
  /** Look for due mails now (a mail was just written or re-sent). */
  wake(): void;
  /** For readiness: whether a relay pass succeeded within three poll intervals and 20 s, and the queue workers still take jobs; null when this process sends no mail. */
  alive(): boolean | null;
  /** The bull queue (none without Redis), for the admins' queue dashboard. */
  queues: Queue.Queue[];
  /** One pass of the "webhooks failing for more than a day" sweep; answers the notifications written. */
  sweep(): Promise<number>;
  /** Stops the relay and the sweep and lets mails in flight finish (bounded by MAIL_TIMEOUT_MS); before closing the database. */
  stop(): Promise<void>;
}

interface DueMail {
  id: string;
  attemptCount: number;
  /** With tracing on: the W3C traceparent the mail was written under, which its sending continues. */
  traceparent?: string | null;
}

/**
 * The mail workers of this process (docs/decisions/0001-mail-outbox.md). A relay moves due mails from PostgreSQL
 * (pending and due, or `sending` with a lease run out) to bull, whose job id is the mail and its attempt number, so
 * two relays make one job; with `deliver`, this process's workers take the jobs. Without Redis the relay hands them
 * to workers in this process. Any number of processes may run this: the claim in PostgreSQL decides who sends.
 * Every MAIL_SWEEP_INTERVAL_MS it also writes the "webhooks failing for more than a day" notifications.
 */
export function startMailRuntime(config: Config, orm: MikroORM, logger: Logger, baseUrl: string, deliver: boolean, metrics?: Metrics): MailRuntime {
  const settings = config.mail;
  // Each wait of one SMTP exchange is bounded by MAIL_TIMEOUT_MS: the connection, the greeting, and the answers to
  // EHLO, MAIL FROM, RCPT TO, DATA and the message. The lease outlasts all of them, so a slow server never has a
  // live worker's mail claimed by another (docs/decisions/0001-mail-outbox.md).
  const leaseMs = settings.timeoutMs * 8 + LEASE_MARGIN_MS;
  const deps: MailDeliveryDeps = {
    orm,
    sender: config.smtpUrl ? smtpSender(config.smtpUrl, settings.timeoutMs) : null,
    identity: mailIdentity(config.mailFrom, baseUrl),
    secrets: createSecretBox(config.accountSecretsKey, config.accountSecretsOldKeys),
    leaseMs,
    retryBaseDelayMs: settings.retryBaseDelayMs,
    giveUpAfterMs: settings.giveUpAfterMs,
    customerMailsPerDay: settings.customerMailsPerDay,
    logger,
    metrics,
  };
  if (!config.smtpUrl && deliver) {
    logger.warn('Mails (account mails, receipts, notifications) are kept in the database, not sent (SMTP_URL is unset): read them with `npm run -s cli -- mail list` and `npm run -s cli -- mail show <id>`. For local use only.');
  }

  const queues: Queue.Queue[] = [];
  let dispatcher: Dispatcher | null = null;
  let stopQueue = async () => {};
  let idle = async () => {};
  let workersTakeJobs = () => true;
  if (config.redisUrl) {
    const queue = openMailQueue(config.redisUrl, config.redisKeyPrefix, logger);
    queues.push(queue.bull);
    deps.onRetryScheduled = (id, attemptCount, at) => {
      // Called in the attempt's span: the retry continues its trace.
      if (queue.ready()) queue.add([{ id, attemptCount, traceparent: currentTraceparent() }], at.getTime() - Date.now()).catch(() => undefined);
    };
    if (deliver) queue.process(settings.workerConcurrency, (job) => tracedAttempt(deps, job.mailId, job.attemptCount, job.traceparent));
    workersTakeJobs = () => !deliver || queue.processing();
    dispatcher = {
      capacity: () => (queue.ready() ? 500 : 0),
      requeueAfterMs: leaseMs,
      async dispatch(due, em) {
        await queue.add(due);
        await markMailsEnqueued(em, due);
      },
    };
    stopQueue = () => queue.close(leaseMs);
  } else if (deliver) {
    const workers = inProcessWorkers(deps, settings.workerConcurrency, () => relay.wake(), logger);
    dispatcher = workers;
    idle = workers.idle;
  }

  const relay = startMailRelay(orm, dispatcher, settings.pollIntervalMs, logger);
  orm.em.getEventManager().registerSubscriber(MAILS_COMMITTED.subscriber);
  const stopListening = MAILS_COMMITTED.listen(() => relay.wake());

  let sweeping: Promise<number> | null = null;
  const sweep = () => {
    sweeping ??= queueWebhookFailureNotices(orm.em.fork())
      .then((written) => {
        if (written > 0) relay.wake();
        return written;
      })
      .finally(() => (sweeping = null));
    return sweeping;
  };
  const sweepTimer = setInterval(() => sweep().catch((error: Error) => logger.warn({ err: error.message }, 'webhook failure notice sweep failed; trying again at the next interval')), settings.sweepIntervalMs);
  sweepTimer.unref();

  return {
    wake: () => relay.wake(),
    alive: () => (dispatcher ? Date.now() - relay.lastPassAt() <= 3 * settings.pollIntervalMs + RELAY_STALE_MARGIN_MS && workersTakeJobs() : null),
    queues,
    sweep,
    async stop() {
      clearInterval(sweepTimer);
      stopListening();
      await relay.stop();
      await sweeping?.catch(() => undefined);
      await stopQueue();
      await idle();
    },
  };
}

/** Where the relay hands due mails: the bull queue, or this process's own workers. */
interface Dispatcher {
  capacity(): number;
  /** Queue mode: a mail handed over for this attempt is not handed over again unless that was this long ago. */
  requeueAfterMs?: number;
  busy?(): string[];
  dispatch(due: DueMail[], em: EntityManager): Promise<void>;
}

interface Relay {
  wake(): void;
  /** When the last pass that did not fail ended, in ms since the epoch. */
  lastPassAt(): number;
  stop(): Promise<void>;
}

/** At start, every `intervalMs`, and when woken: hands due mails to the dispatcher (none: this process only writes mails). */
function startMailRelay(orm: MikroORM, dispatcher: Dispatcher | null, intervalMs: number, logger: Logger): Relay {
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let lastProblem = '';
  let lastPassAt = Date.now();

  const pass = async (): Promise<boolean> => {
    if (!dispatcher) return false;
    const limit = Math.min(dispatcher.capacity(), 500);
    if (limit <= 0) return false;
    const em = orm.em.fork();
    const due = await dueMailsFor(em, limit, dispatcher.requeueAfterMs ?? null, dispatcher.busy?.() ?? []);
    if (due.length > 0) await dispatcher.dispatch(due, em);
    return due.length === limit;
  };
  const run = (): void => {
    if (stopped || !dispatcher) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    // Woken by a request, the pass is still no part of its trace: each mail carries the trace it was written in.
    running = outsideTraces(async () => {
      try {
        do {
          again = false;
          if (await pass()) again = true;
        } while (again && !stopped);
        lastProblem = '';
        lastPassAt = Date.now();
      } catch (error) {
        const problem = (error as Error).message;
        if (problem !== lastProblem) logger.warn({ err: problem }, 'mail relay pass failed; retrying at the next tick');
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

/** Up to `limit` due mails, leaving out those this process's workers are on (asked for that many more). */
async function dueMailsFor(em: EntityManager, limit: number, requeueAfterMs: number | null, busy: string[]): Promise<DueMail[]> {
  const rows = await dueMails(em, limit + busy.length, requeueAfterMs);
  const working = new Set(busy);
  return rows.filter((row) => !working.has(row.id)).slice(0, limit);
}

/** Without Redis: up to `concurrency` mails at once in this process, each finished one letting the relay fill its slot. */
function inProcessWorkers(deps: MailDeliveryDeps, concurrency: number, freed: () => void, logger: Logger): Dispatcher & { idle(): Promise<void> } {
  const inFlight = new Map<string, Promise<void>>();
  return {
    capacity: () => concurrency - inFlight.size,
    busy: () => [...inFlight.keys()],
    async dispatch(due) {
      for (const { id, attemptCount, traceparent } of due) {
        const work = tracedAttempt(deps, id, attemptCount, traceparent)
          .then(() => undefined)
          .catch((error) => logger.error({ mail: { id }, err: (error as Error).message }, 'mail attempt failed to run; its claim runs out and it is tried again'))
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

interface MailJob {
  mailId: string;
  attemptCount: number;
  traceparent?: string;
}

/** The bull queue of "attempt this mail now" jobs; the job id is the mail and its attempt number. Finished jobs are removed: PostgreSQL keeps the history. */
function openMailQueue(redisUrl: string, keyPrefix: string, logger: Logger) {
  const clients: Redis[] = [];
  const queue = new Queue<MailJob>('mail-outbox', {
    prefix: bullPrefix(redisUrl, `${keyPrefix}bull`),
    createClient: () => {
      const client = connectBullClient(redisUrl);
      client.on('error', () => undefined);
      clients.push(client);
      return client;
    },
    settings: { maxStalledCount: 5, retryProcessDelay: 1000 },
    defaultJobOptions: { removeOnComplete: true, removeOnFail: true, attempts: 1 },
  });
  let lastError = '';
  let stoppedProcessing = false;
  queue.on('error', (error) => {
    if (error.message !== lastError) logger.warn({ err: error.message }, 'mail queue: redis problem (mails wait in PostgreSQL)');
    lastError = error.message;
  });
  return {
    bull: queue,
    ready: () => queue.client.status === 'ready',
    async add(due: DueMail[], delayMs = 0) {
      const jobs = due.map((d) => ({ data: { mailId: d.id, attemptCount: d.attemptCount, ...(d.traceparent ? { traceparent: d.traceparent } : {}) }, opts: { jobId: `${d.id}-${d.attemptCount}`, delay: delayMs > 0 ? delayMs : undefined } }));
      await withinTime(queue.addBulk(jobs), ADD_TIMEOUT_MS, 'redis did not answer in time');
    },
    process(concurrency: number, handler: (job: MailJob) => Promise<unknown>) {
      nameWorkerQuietly(queue);
      void queue.process(concurrency, (job) => handler(job.data)).catch((error) => {
        stoppedProcessing = true;
        // bull rejects with undefined when the queue is closed while its worker still sets up.
        logger.error({ err: error instanceof Error ? error.message : String(error) }, 'mail queue: processing stopped');
      });
    },
    processing: () => !stoppedProcessing,
    async close(timeoutMs: number) {
      await Promise.race([queue.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
      for (const client of clients) client.disconnect();
    },
  };
}

/** One mail attempt, with tracing on a span continuing the trace the mail was written in (docs/operations.md, "Tracing"). */
function tracedAttempt(deps: MailDeliveryDeps, mailId: string, attemptCount: number, traceparent: string | null | undefined) {
  return continueTrace(traceparent, 'mail.send', { 'mail.id': mailId, 'mail.attempt': attemptCount + 1 }, () => attemptMail(deps, mailId, attemptCount));
}
