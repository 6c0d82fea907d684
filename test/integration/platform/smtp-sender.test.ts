import net, { type AddressInfo } from 'node:net';
import { smtpSender } from '../../../src/platform/mail/smtp-sender';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink';

/**
 * What an SMTP answer means to the mail outbox (src/platform/mail/smtp-sender.ts, docs/decisions/0001-mail-outbox.md), against
 * real servers on loopback: only a server that had the whole message and then went silent leaves the outcome unknown;
 * every failure before the message was handed over is "not sent" (safe to try again), a 5xx is a refusal.
 */
let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink?.stop());
afterEach(() => {
  sink.behaviour = 'accept';
});

const MESSAGE = 'From: no-reply@pay.example.test\r\nTo: ann@example.com\r\nSubject: Test\r\nMessage-ID: <mail_test@pay.example.test>\r\n\r\nHello.\r\n';
// Long enough for a loopback server's greeting on a loaded machine; the silent cases wait it out.
const send = (url: string, timeoutMs = 2000) => smtpSender(url, timeoutMs).send({ from: 'no-reply@pay.example.test', to: 'ann@example.com' }, MESSAGE);

test('a 2xx to the message: accepted, and the server has it once', async () => {
  const before = sink.to('ann@example.com').length;
  expect(await send(sink.url)).toEqual({ kind: 'accepted', response: expect.stringMatching(/^250/) });
  expect(sink.to('ann@example.com')).toHaveLength(before + 1);
});

test('the whole message handed over, then no answer: unknown', async () => {
  sink.behaviour = 'hang-after-data';
  expect(await send(sink.url)).toEqual({ kind: 'unknown', error: expect.stringMatching(/ETIMEDOUT/) });
});

test('4xx before the message: not sent; 5xx: refused', async () => {
  sink.behaviour = 'defer';
  expect(await send(sink.url)).toEqual({ kind: 'notSent', error: expect.stringMatching(/451/) });
  sink.behaviour = 'reject';
  expect(await send(sink.url)).toEqual({ kind: 'refused', error: expect.stringMatching(/550/) });
});

test('nobody listening, or a server that never greets: not sent', async () => {
  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  expect(await send(`smtp://127.0.0.1:${port}`)).toEqual({ kind: 'notSent', error: expect.stringMatching(/ECONNREFUSED/) });

  const sockets: net.Socket[] = [];
  const silent = net.createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    expect(await send(`smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`)).toEqual({ kind: 'notSent', error: expect.stringMatching(/ETIMEDOUT|Greeting/i) });
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  }
});
