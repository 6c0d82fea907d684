import type { MikroORM } from '@mikro-orm/postgresql';
import { smtpSender } from '../../platform/mail/smtp-sender';
import type { Metrics } from '../../platform/observability/metrics';
import { continueTrace } from '../../platform/observability/tracing';
import { startAttemptRelay, type AttemptRuntime } from '../../platform/outbox/attempt-relay';
import type { Config } from '../../shared/config';
import type { Logger } from '../../shared/logger';
import { createSecretBox } from '../identity';
import { attemptMail, type MailDeliveryDeps } from './mail-delivery';
import { mailIdentity } from './mail-render';
import { MAIL_STATEMENTS } from './mail-store';
import { queueWebhookFailureNotices } from './webhook-failure-notices';

/** Margin of a claim's lease beyond the SMTP waits it can take (connect, greeting, the answers). */
const LEASE_MARGIN_MS = 10_000;

/** The mail workers of this process: `wake` when a mail was re-sent (one written wakes the relays by itself). */
export interface MailRuntime extends AttemptRuntime {
  /** One pass of the "webhooks failing for more than a day" sweep; answers the notifications written. */
  sweep(): Promise<number>;
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

  const attempt = (id: string, attemptCount: number, traceparent: string | null | undefined) => tracedAttempt(deps, id, attemptCount, traceparent);
  const relay = startAttemptRelay({
    orm, config, logger, deliver, attempt, settings: { ...settings, leaseMs },
    statements: MAIL_STATEMENTS,
    names: { of: 'mail', queue: 'mail-outbox', jobField: 'mailId', redisProblemNote: ' (mails wait in PostgreSQL)' },
    failedToRun: (id, err) => logger.error({ mail: { id }, err }, 'mail attempt failed to run; its claim runs out and it is tried again'),
  });
  deps.onRetryScheduled = relay.retryScheduled;

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
    wake: relay.wake,
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
