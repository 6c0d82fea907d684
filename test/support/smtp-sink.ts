import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { suiteFixture } from './suite-fixture';

/** One message the sink took, parsed with mailparser, with what the SMTP envelope said and the raw bytes. */
export interface SunkMail {
  /** RCPT TO addresses of the SMTP transaction. */
  envelopeTo: string[];
  envelopeFrom: string;
  raw: string;
  parsed: ParsedMail;
  /** The header lines of the raw message, unfolded, as `name: value`. */
  headerLines: string[];
}

/** How the sink answers, set by a test: normally it takes every message. */
export type SinkBehaviour =
  /** 250 to every message. */
  | 'accept'
  /** Reads the whole message, then never answers (the client times out after the message: outcome unknown). */
  | 'hang-after-data'
  /** 451 to RCPT TO: try later. */
  | 'defer'
  /** 550 to RCPT TO: no such mailbox. */
  | 'reject';

export interface SmtpSink {
  /** smtp://127.0.0.1:<port>, for SMTP_URL: the same port across stop and start. */
  url: string;
  port: number;
  received: SunkMail[];
  behaviour: SinkBehaviour;
  /** Run after a message is taken and before the server answers it, for a test to act in between. */
  beforeAnswer: ((mail: SunkMail) => Promise<void>) | null;
  /** The mails received so far to `to` (envelope), optionally of a subject. */
  to(address: string, subject?: RegExp): SunkMail[];
  /** Waits until `count` mails matched `match` (within `timeoutMs`), and answers them. */
  waitFor(match: (mail: SunkMail) => boolean, count?: number, timeoutMs?: number): Promise<SunkMail[]>;
  /** Stops listening (connections in progress are cut after 500 ms), as an SMTP outage. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

/**
 * A real SMTP server (the `smtp-server` package) on a loopback port that can be stopped and started again on the
 * same port, and told to defer, reject or hang: what the mail workers meet in the world. Every message is kept raw
 * and parsed with mailparser, with its SMTP envelope, so a test sees exactly what went over the wire.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const received: SunkMail[] = [];
  const waiters: { match: (mail: SunkMail) => boolean; count: number; resolve(mails: SunkMail[]): void }[] = [];
  let server: SMTPServer | null = null;
  /** False from a stop until the next start. */
  let accepting = true;
  let port = 0;
  const sink: SmtpSink = {
    url: '',
    port: 0,
    received,
    behaviour: 'accept',
    beforeAnswer: null,
    to: (address, subject) => received.filter((m) => m.envelopeTo.includes(address) && (!subject || subject.test(m.parsed.subject ?? ''))),
    waitFor(match, count = 1, timeoutMs = 20_000) {
      const ready = received.filter(match);
      if (ready.length >= count) return Promise.resolve(ready);
      return new Promise<SunkMail[]>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`waited ${timeoutMs} ms for ${count} mails, ${received.filter(match).length} came`)), timeoutMs);
        waiters.push({ match, count, resolve: (mails) => (clearTimeout(timer), resolve(mails)) });
      });
    },
    async stop() {
      const closing = server;
      server = null;
      accepting = false;
      await new Promise<void>((resolve) => (closing ? closing.close(() => resolve()) : resolve()));
    },
    async start() {
      accepting = true;
      server = listen();
      await new Promise<void>((resolve, reject) => {
        server!.server.once('error', reject);
        server!.listen(port, '127.0.0.1', () => resolve());
      });
      port = (server.server.address() as AddressInfo).port;
      sink.port = port;
      sink.url = `smtp://127.0.0.1:${port}`;
    },
  };

  const listen = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      closeTimeout: 500,
      onRcptTo(_address, _session, done) {
        if (sink.behaviour === 'defer') return done(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
        if (sink.behaviour === 'reject') return done(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
        done();
      },
      onData(stream, session, done) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          if (sink.behaviour === 'hang-after-data') return; // never answers: the client's wait runs out
          // smtp-server still reads a message after it announced its shutdown (421); a real server takes none then.
          const shuttingDown = () => done(Object.assign(new Error('Shutting down'), { responseCode: 421 }));
          if (!accepting) return shuttingDown();
          const raw = Buffer.concat(chunks).toString('utf8');
          simpleParser(raw)
            .then(async (parsed) => {
              // A stop while the message was parsed has already told the client 421: the server never took it.
              if (!accepting) return shuttingDown();
              const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
              const mail: SunkMail = {
                envelopeTo: session.envelope.rcptTo.map((r) => r.address),
                envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                raw,
                parsed,
                headerLines: head.split(/\r?\n/),
              };
              received.push(mail);
              for (const waiter of [...waiters]) {
                const matching = received.filter(waiter.match);
                if (matching.length >= waiter.count) {
                  waiters.splice(waiters.indexOf(waiter), 1);
                  waiter.resolve(matching);
                }
              }
              await sink.beforeAnswer?.(mail);
              done();
            })
            .catch(done);
        });
      },
    });

  await sink.start();
  return sink;
}

/** A sink for the file or the enclosing `describe` (suite-fixture.ts); a service declared after it stops first. */
export function useSmtpSink(): SmtpSink {
  return suiteFixture('useSmtpSink', startSmtpSink, (sink) => sink.stop());
}
