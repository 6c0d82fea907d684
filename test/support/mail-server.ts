import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { suiteFixture } from './suite-fixture';

/** One mail the server received, parsed. */
export interface ReceivedMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Every link of the text part. */
  links: URL[];
}

export interface MailServer {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** The next mail to `to` whose subject matches (already received or still to come). */
  mailTo(to: string, subject?: RegExp): Promise<ReceivedMail>;
  /** The token of the link of the next mail to `to` whose subject matches. */
  linkTokenTo(to: string, subject?: RegExp): Promise<string>;
  close(): Promise<void>;
}

/** A real SMTP server on a loopback port (the `smtp-server` package): what the service sends, tests read. */
export async function startMailServer(): Promise<MailServer> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiting: { match(mail: ReceivedMail): boolean; resolve(mail: ReceivedMail): void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((parsed) => {
          const text = parsed.text ?? '';
          const mail: ReceivedMail = {
            to: [parsed.to ?? []].flat().map((a) => a.text).join(', '),
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text,
            html: typeof parsed.html === 'string' ? parsed.html : '',
            links: [...text.matchAll(/https?:\/\/\S+/g)].map((m) => new URL(m[0])),
          };
          received.push(mail);
          const index = waiting.findIndex((w) => w.match(mail));
          if (index >= 0) {
            taken.add(mail);
            waiting.splice(index, 1)[0].resolve(mail);
          }
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const mailTo = (to: string, subject = /.*/) => {
    const match = (mail: ReceivedMail) => mail.to.includes(to) && subject.test(mail.subject);
    const ready = received.find((mail) => !taken.has(mail) && match(mail));
    if (ready) {
      taken.add(ready);
      return Promise.resolve(ready);
    }
    return new Promise<ReceivedMail>((resolve) => waiting.push({ match, resolve }));
  };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    mailTo,
    async linkTokenTo(to, subject) {
      const mail = await mailTo(to, subject);
      const token = mail.links.map((link) => link.searchParams.get('token')).find(Boolean);
      if (!token) throw new Error(`no link with a token in the mail "${mail.subject}" to ${to}`);
      return token;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A mail server for the file or the enclosing `describe` (suite-fixture.ts); a service declared after it stops first. */
export function useMailServer(): Readonly<MailServer> {
  return suiteFixture('useMailServer', startMailServer, (server) => server.close());
}
