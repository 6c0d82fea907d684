import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

/** One mail of ours: plain text and simple HTML, to one address. `kind` names it in logs and metrics. */
export interface Mail {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * The mail port. `send` never throws and never waits for the mail server: a request that mails (sign-up,
 * password reset …) answers at once, whatever SMTP does. Call it after the database work is committed,
 * so no mail tells of something that was rolled back.
 */
export interface Mailer {
  send(mail: Mail): void;
  /** Waits for the mails being sent, retries included (tests). */
  idle(): Promise<void>;
  /** A clean stop: mails waiting for a retry are dropped (and logged), those being sent are waited for. */
  stop(): Promise<void>;
}

export interface MailSettings {
  /** SMTP_URL: smtp:// or smtps://, user and password in the URL; unset = mail goes to the log. */
  smtpUrl: string | undefined;
  /** MAIL_FROM: the From address. */
  from: string;
}

/** Tries per mail, and the wait before each retry: about 2 minutes of an SMTP outage is ridden out. */
const RETRY_DELAYS_MS = [2_000, 20_000, 100_000];

/** SMTP (nodemailer) when SMTP_URL is set; otherwise the log, with one warning at start. */
export function createMailer(settings: MailSettings, logger: Logger): Mailer {
  if (!settings.smtpUrl) {
    logger.warn('SMTP_URL is not set: mails (verification, invitation, password reset) are written to the log instead of sent. For local use only.');
    return logMailer(logger);
  }
  return smtpMailer(settings.smtpUrl, settings.from, logger);
}

/**
 * No mail server: the whole mail goes to the log at info, links included, so a developer can follow
 * them. Those links are capabilities: never run a shared deployment without SMTP_URL.
 */
function logMailer(logger: Logger): Mailer {
  return {
    send(mail) {
      logger.info({ mail: { kind: mail.kind, to: mail.to, subject: mail.subject, text: mail.text } }, 'mail (SMTP_URL unset: logged, not sent)');
    },
    idle: async () => undefined,
    stop: async () => undefined,
  };
}

/**
 * Sent in the background, retried in this process (RETRY_DELAYS_MS) when the server refuses or cannot be
 * reached; after the last try the mail is dropped and logged as an error, without its body (its links are
 * capabilities). The person asks again (a new reset link, a new invitation). Nothing is queued across a
 * restart: these mails are cheap to ask for again, and a durable queue would keep live links at rest.
 */
function smtpMailer(smtpUrl: string, from: string, logger: Logger): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  const pending = new Set<Promise<void>>();
  const sleepers = new Set<() => void>();
  let stopping = false;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });
  const deliver = async (mail: Mail) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
        logger.info({ mail: { kind: mail.kind, to: mail.to } }, 'mail sent');
        return;
      } catch (error) {
        const delay = stopping ? undefined : RETRY_DELAYS_MS[attempt];
        const problem = { kind: mail.kind, to: mail.to, attempt: attempt + 1, error: (error as Error).message };
        if (delay === undefined) return void logger.error({ mail: problem }, 'mail not sent: SMTP kept failing, dropped');
        logger.warn({ mail: problem, retryInMs: delay }, 'mail not sent yet: SMTP failed, will retry');
        await sleep(delay);
        if (stopping) return void logger.error({ mail: problem }, 'mail not sent: the service stopped before the retry, dropped');
      }
    }
  };
  return {
    send(mail) {
      const sending = deliver(mail).finally(() => pending.delete(sending));
      pending.add(sending);
    },
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    async stop() {
      stopping = true;
      for (const wake of [...sleepers]) wake();
      while (pending.size > 0) await Promise.allSettled([...pending]);
      transport.close();
    },
  };
}
