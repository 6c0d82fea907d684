import type nodemailer from 'nodemailer';

/**
 * What became of one message handed to the SMTP server, in the terms the mail outbox needs
 * (docs/decisions/0001-mail-outbox.md):
 * - `accepted`: the server answered 2xx to the message: it has it;
 * - `notSent`: the server could not be reached, or refused with 4xx, before it had the whole message: try later;
 * - `refused`: the server refused with 5xx (a bad address, a policy): trying again would get the same answer;
 * - `unknown`: the whole message was handed over, then the connection dropped or timed out before the answer:
 *   the server may well have it (RFC 1047), so sending it again could make a duplicate.
 */
export type SmtpOutcome =
  | { kind: 'accepted'; response: string }
  | { kind: 'notSent' | 'refused' | 'unknown'; error: string };

export interface SmtpSender {
  /** Hands `raw` (a whole RFC 5322 message) to the server for `to`. Never throws. */
  send(envelope: { from: string; to: string }, raw: string): Promise<SmtpOutcome>;
}

/** nodemailer's errors: `responseCode` is the server's answer, when there was one. */
interface SmtpError extends Error {
  code?: string;
  command?: string;
  responseCode?: number;
}

const quiet = () => undefined;

/**
 * SMTP through nodemailer, one connection per message (SMTP_URL: smtp:// or smtps://, credentials in the URL).
 * Every wait is bounded by `timeoutMs`: connecting, the greeting, and each answer (socket inactivity). Whether
 * the message itself was handed over is read from nodemailer's own "message" log entry, which it writes when the
 * message stream, final dot included, has gone to the socket.
 */
export function smtpSender(smtpUrl: string, timeoutMs: number): SmtpSender {
  // Loaded when mails are sent over SMTP, not with every service and CLI call that never sends one.
  const { createTransport } = require('nodemailer') as typeof nodemailer;
  return {
    async send(envelope, raw) {
      let handedOver = false;
      const logger = { trace: quiet, debug: quiet, warn: quiet, error: quiet, fatal: quiet, info: (meta: unknown) => void (isMessageEntry(meta) && (handedOver = true)) };
      const transport = createTransport({
        url: smtpUrl,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
        dnsTimeout: timeoutMs,
        logger,
      } as Parameters<typeof nodemailer.createTransport>[0]);
      try {
        const info = await transport.sendMail({ envelope: { from: envelope.from, to: [envelope.to] }, raw });
        if (info.rejected.length > 0) return { kind: 'refused', error: `the server refused the recipient: ${String(info.response ?? '')}` };
        return { kind: 'accepted', response: String(info.response ?? '') };
      } catch (error) {
        return classify(error as SmtpError, handedOver);
      } finally {
        transport.close();
      }
    },
  };
}

const isMessageEntry = (meta: unknown) => typeof meta === 'object' && meta !== null && (meta as { tnx?: unknown }).tnx === 'message';

function classify(error: SmtpError, handedOver: boolean): SmtpOutcome {
  const what = `${error.code ?? 'ERROR'}${error.command ? ` at ${error.command}` : ''}: ${error.message}`.slice(0, 500);
  const answer = error.responseCode;
  if (typeof answer === 'number' && answer >= 500 && answer < 600) return { kind: 'refused', error: what };
  if (typeof answer === 'number' && answer >= 400 && answer < 500) return { kind: 'notSent', error: what };
  // An address nodemailer will not put in an envelope: the same every time.
  if (error.code === 'EENVELOPE') return { kind: 'refused', error: what };
  return { kind: handedOver ? 'unknown' : 'notSent', error: what };
}
