import type Queue from 'bull';
import type { MikroORM } from '@mikro-orm/postgresql';
import { smtpSender } from '../../platform/mail/smtp-sender';
import type { Metrics } from '../../platform/observability/metrics';
import { continueTrace } from '../../platform/observability/tracing';
import { startAttemptRelay } from '../../platform/outbox/attempt-relay';
import type { Config } from '../../shared/config';
import type { Logger } from '../../shared/logger';
import { createSecretBox } from '../identity';
import { attemptMail, type MailDeliveryDeps } from './mail-delivery';
import { MAILS_COMMITTED } from './mail-outbox';
import { mailIdentity } from './mail-render';
import { dueMails, markMailsEnqueued } from './mail-store';
import { queueWebhookFailureNotices } from './webhook-failure-notices';

/** Margin of a claim's lease beyond the SMTP waits it can take (connect, greeting, the answers). */
const LEASE_MARGIN_MS = 10_000;

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

/**
 * The mail workers of this process (docs/decisions/0001-mail-outbox.md), a use of the outbox engine
 * (src/platform/outbox/attempt-relay.ts). A relay moves due mails from PostgreSQL
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

  const relay = startAttemptRelay({
    orm,
    signal: MAILS_COMMITTED,
    logger,
    passFailed: 'mail relay pass failed; retrying at the next tick',
    pollMs: settings.pollIntervalMs,
    leaseMs,
    concurrency: settings.workerConcurrency,
    deliver,
    redis: config.redisUrl ? { url: config.redisUrl, keyPrefix: config.redisKeyPrefix } : null,
    queue: { name: 'mail-outbox', idField: 'mailId', redisProblem: 'mail queue: redis problem (mails wait in PostgreSQL)', processingStopped: 'mail queue: processing stopped' },
    due: (limit, requeueAfterMs) => dueMails(orm.em.fork(), limit, requeueAfterMs),
    markHandedOver: (due) => markMailsEnqueued(orm.em.fork(), due),
    attempt: (id, attemptCount, traceparent) => tracedAttempt(deps, id, attemptCount, traceparent),
    failedToRun: (id, err) => logger.error({ mail: { id }, err }, 'mail attempt failed to run; its claim runs out and it is tried again'),
  });
  deps.onRetryScheduled = relay.retryScheduled;
  // Every relay of the process listens; waking one that finds nothing is a cheap read.
  const wake = () => MAILS_COMMITTED.raise();

  let sweeping: Promise<number> | null = null;
  const sweep = () => {
    sweeping ??= queueWebhookFailureNotices(orm.em.fork())
      .then((written) => {
        if (written > 0) wake();
        return written;
      })
      .finally(() => (sweeping = null));
    return sweeping;
  };
  const sweepTimer = setInterval(() => sweep().catch((error: Error) => logger.warn({ err: error.message }, 'webhook failure notice sweep failed; trying again at the next interval')), settings.sweepIntervalMs);
  sweepTimer.unref();

  return {
    wake,
    alive: relay.alive,
    queues: relay.queues,
    sweep,
    async stop() {
      clearInterval(sweepTimer);
      await relay.stop();
      await sweeping?.catch(() => undefined);
    },
  };
}

/** One mail attempt, with tracing on a span continuing the trace the mail was written in (docs/operations.md, "Tracing"). */
function tracedAttempt(deps: MailDeliveryDeps, mailId: string, attemptCount: number, traceparent: string | null | undefined) {
  return continueTrace(traceparent, 'mail.send', { 'mail.id': mailId, 'mail.attempt': attemptCount + 1 }, () => attemptMail(deps, mailId, attemptCount));
}
