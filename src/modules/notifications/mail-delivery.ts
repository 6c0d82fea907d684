import { randomBytes } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { SmtpOutcome, SmtpSender } from '../../platform/mail/smtp-sender';
import type { Metrics } from '../../platform/observability/metrics';
import type { Logger } from '../../shared/logger';
import type { SecretBox } from '../identity';
import { backOffMs } from '../../platform/outbox/outbox';
import { MAIL_LIFECYCLE } from './mail.lifecycle';
import { mailboxKey } from '../../shared/email';
import { isCustomerMail } from './mail-kinds';
import { accountMailMessage, isAccountMail } from './account-mail';
import { MailStatus } from './mail-outbox';
import { renderOutboxMail, UnrenderableMail, type MailIdentity, type RenderedMail } from './mail-render';
import { admitCustomerMail, claimMail, keepWrittenOutMail, recordMailOutcome, type ClaimedMail, type MailOutcomeColumns, type MailOutcomeMove } from './mail-store';

export interface MailDeliveryDeps {
  orm: MikroORM;
  /** SMTP_URL's sender; null: SMTP_URL is unset and mails are kept in the database (`npm run cli -- mail show`). */
  sender: SmtpSender | null;
  identity: MailIdentity;
  /** ACCOUNT_SECRETS_KEY's box: account mails' words are sealed with it (account-mail.ts). */
  secrets: SecretBox;
  /** How long a claim belongs to its worker; past it, the worker counts as dead and the mail is claimed again. */
  leaseMs: number;
  /** MAIL_RETRY_BASE_DELAY_MS: the first retry's wait; each later one doubles, up to 120 times it. */
  retryBaseDelayMs: number;
  /** MAIL_GIVE_UP_AFTER_MS: no retry is scheduled later than this after the mail was written (or re-sent by an admin). */
  giveUpAfterMs: number;
  /** MAIL_CUSTOMER_MAILS_PER_DAY: customer mails one mailbox may receive in 24 hours, from all shops; past it they are suppressed. */
  customerMailsPerDay: number;
  logger: Logger;
  metrics?: Metrics;
  /** Told when a retry is scheduled, so the queue can carry it as a delayed job (the relay is the backstop). */
  onRetryScheduled?(mailId: string, attemptCount: number, at: Date): void;
}

/** `skipped`: not this worker's to send (already sent, claimed by another worker, not due). */
export type MailAttemptResult = 'skipped' | MailStatus;

/** The longest wait between two tries: 120 times the base (an hour with the default 30 s). */
const MAX_DELAY_FACTOR = 120;

/** When try number `attempt + 1` is due after `attempt` failed: doubling from the base, capped, plus 0-20% jitter. */
export function nextAttemptAt(baseDelayMs: number, attempt: number, now = Date.now(), random = Math.random()): Date {
  return new Date(now + backOffMs({ firstMs: baseDelayMs, maxMs: baseDelayMs * MAX_DELAY_FACTOR, jitter: 0.2 }, attempt, () => random));
}

/**
 * One attempt at a mail, once: the claim is the mail table's claim and reclaim as one conditional UPDATE (due and
 * pending, or `sending` with its lease run out, and still at `attemptCount` attempts), so two workers, a duplicate job or a retried job can never send
 * the same attempt twice. The first claim writes the message out (`raw_message`, with its Message-ID) and every
 * later attempt sends those very bytes (an account mail keeps them sealed: account-mail.ts). The outcome is recorded only under the claim's token: a worker whose
 * lease ran out records nothing (docs/decisions/0001-mail-outbox.md). A customer mail is first held to its
 * mailbox's daily cap (admitOrSuppress).
 */
export async function attemptMail(deps: MailDeliveryDeps, mailId: string, attemptCount: number): Promise<MailAttemptResult> {
  const em = deps.orm.em.fork();
  const token = randomBytes(12).toString('base64url');
  const row = await claimMail(em, mailId, attemptCount, token, deps.leaseMs);
  if (!row) return 'skipped';
  if (isCustomerMail(row.kind) && row.recipientKey === null) {
    const notSent = await admitOrSuppress(deps, em, row, token);
    if (notSent) return notSent;
  }

  let mail: { raw: string; messageId: string; subject: string };
  try {
    if (row.rawMessage) mail = { raw: row.rawMessage, messageId: row.messageId!, subject: row.subject ?? '' };
    else if (isAccountMail(row.kind)) mail = await accountMailMessage(em, deps.secrets, deps.identity, row, token);
    else mail = await writeOut(deps, em, row, token);
  } catch (error) {
    if (!(error instanceof UnrenderableMail)) throw error;
    return record(deps, row, token, 'giveUp', { lastError: error.message, failedAt: new Date() });
  }

  if (!deps.sender) {
    const kept = await record(deps, row, token, 'keep', { lastError: null });
    if (kept !== 'skipped') deps.logger.info({ mail: { id: row.id, kind: row.kind } }, `mail kept, not sent (SMTP_URL unset): read it with npm run -s cli -- mail show ${row.id}`);
    return kept;
  }

  const outcome = await deps.sender.send({ from: deps.identity.address, to: row.recipient }, mail.raw);
  return recordOutcome(deps, row, token, outcome);
}

/**
 * Anyone paying may type a stranger's address as `customer_email`, and a shop may take many payments: a customer
 * mail goes only while its mailbox (every spelling its provider delivers to one person, mailboxKey) had fewer than
 * MAIL_CUSTOMER_MAILS_PER_DAY customer mails admitted in 24 hours, from any shop. Decided once, at the mail's first
 * claim; past the cap the mail is suppressed with the reason, counted, and logged without the address. Answers the
 * result when the mail is not to be sent, null when it is.
 */
async function admitOrSuppress(deps: MailDeliveryDeps, em: EntityManager, row: ClaimedMail, token: string): Promise<MailAttemptResult | null> {
  const key = mailboxKey(row.recipient);
  const admission = await admitCustomerMail(em, row.id, token, key, deps.customerMailsPerDay);
  if (admission === 'admitted') return null;
  if (admission === 'lost') return 'skipped';
  const lastError = `Not sent: this mailbox had ${deps.customerMailsPerDay} customer mails in the last 24 hours (MAIL_CUSTOMER_MAILS_PER_DAY)`;
  const result = await record(deps, row, token, 'suppress', { recipientKey: key, lastError });
  if (result !== 'skipped') deps.logger.warn({ mail: { id: row.id, kind: row.kind } }, 'customer mail not sent: its mailbox reached MAIL_CUSTOMER_MAILS_PER_DAY');
  return result;
}

/** The first claim renders the mail and keeps it on the row; a claim that lost its lease meanwhile writes nothing. */
async function writeOut(deps: MailDeliveryDeps, em: EntityManager, row: ClaimedMail, token: string): Promise<RenderedMail> {
  const rendered = await renderOutboxMail(em, deps.identity, row);
  await keepWrittenOutMail(em, row.id, token, rendered);
  return rendered;
}

async function recordOutcome(deps: MailDeliveryDeps, row: ClaimedMail, token: string, outcome: SmtpOutcome): Promise<MailAttemptResult> {
  const log = { mail: { id: row.id, kind: row.kind, attempt: row.attemptCount } };
  switch (outcome.kind) {
    case 'accepted': {
      // An account mail's words go once it is sent (its links are capabilities): `sent` is final, nothing reads them again.
      const result = await record(deps, row, token, 'send', { sentAt: new Date(), lastError: null, ...(isAccountMail(row.kind) ? { sealedBody: null } : {}) });
      if (result !== 'skipped') deps.logger.info(log, 'mail sent');
      return result;
    }
    case 'refused':
      deps.logger.error({ ...log, error: outcome.error }, 'mail refused by the SMTP server: not sent (admins: the mails query)');
      return record(deps, row, token, 'giveUp', { lastError: outcome.error, failedAt: new Date() });
    case 'unknown':
      deps.logger.error({ ...log, error: outcome.error }, 'mail handed over but unanswered: maybe delivered, not resent (admins: resendMail)');
      return record(deps, row, token, 'lose', { lastError: outcome.error });
    case 'notSent': {
      const at = nextAttemptAt(deps.retryBaseDelayMs, row.attemptCount);
      if (at.getTime() > row.retryFrom.getTime() + deps.giveUpAfterMs) {
        deps.logger.error({ ...log, error: outcome.error }, 'mail not sent: SMTP kept failing past MAIL_GIVE_UP_AFTER_MS, given up (admins: resendMail)');
        return record(deps, row, token, 'giveUp', { lastError: outcome.error, failedAt: new Date() });
      }
      deps.logger.warn({ ...log, error: outcome.error, retryAt: at.toISOString() }, 'mail not sent yet: SMTP failed, will retry');
      const result = await record(deps, row, token, 'retry', { lastError: outcome.error, nextAttemptAt: at });
      if (result !== 'skipped') deps.onRetryScheduled?.(row.id, row.attemptCount, at);
      return result;
    }
  }
}

/**
 * The waits before recording an outcome again after PostgreSQL failed to take it. An outcome left unrecorded lets
 * the lease run out, and a mail the server already took would then be sent twice. About 8 s in all, inside the
 * lease's margin; a try after the lease ran out records nothing.
 */
const RECORD_RETRY_DELAYS_MS: readonly number[] = [200, 800, 2000, 5000];

/** The move out of `sending`, only under this claim's token; the lease is released with it. */
async function record(deps: MailDeliveryDeps, row: ClaimedMail, token: string, move: MailOutcomeMove, changes: MailOutcomeColumns): Promise<MailAttemptResult> {
  for (let retry = 0; ; retry++) {
    try {
      return await recordOnce(deps, row, token, move, changes);
    } catch (error) {
      if (retry >= RECORD_RETRY_DELAYS_MS.length) throw error;
      deps.logger.warn({ mail: { id: row.id, kind: row.kind }, err: (error as Error).message }, 'mail outcome not recorded yet: the database failed, trying again');
      await new Promise((resolve) => setTimeout(resolve, RECORD_RETRY_DELAYS_MS[retry]));
    }
  }
}

async function recordOnce(deps: MailDeliveryDeps, row: ClaimedMail, token: string, move: MailOutcomeMove, changes: MailOutcomeColumns): Promise<MailAttemptResult> {
  if (!(await recordMailOutcome(deps.orm.em.fork(), row.id, token, move, changes))) return 'skipped';
  const status = MAIL_LIFECYCLE.moves[move].to as MailStatus;
  deps.metrics?.mails.inc({ kind: row.kind, outcome: move === 'retry' ? 'retry_scheduled' : status });
  return status;
}
