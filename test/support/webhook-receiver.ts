import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suiteFixture } from './suite-fixture';

/** One request as the receiver saw it: the raw body bytes, exactly as sent. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  body: { id: string; event: string; sequence: number; payment: Record<string, unknown>; shop: { id: string; shop_name: string }; timestamp: string };
  receivedAt: number;
}

/** What to answer: a status (and optional headers and body), or `hold` to never answer. */
export type Reply = { status: number; headers?: Record<string, string>; body?: string } | 'hold';

export interface Receiver {
  /** `http://127.0.0.1:<port>/hooks` */
  url: string;
  received: ReceivedWebhook[];
  /** Decides each answer; `n` counts requests from 1. Default: 200. */
  reply: (request: ReceivedWebhook, n: number) => Reply | Promise<Reply>;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  /** Forgets what was received and answers 200 again (between tests). */
  reset(): void;
  close(): Promise<void>;
}

const ANSWER_OK = (): Reply => ({ status: 200, body: 'ok' });

/** A seller's webhook endpoint on loopback: a real HTTP server that records every request. */
export async function startReceiver(): Promise<Receiver> {
  const held: http.ServerResponse[] = [];
  const receiver: Receiver = {
    url: '',
    received: [],
    reply: ANSWER_OK,
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (receiver.received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${receiver.received.length} of ${count} requests in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return receiver.received;
    },
    reset() {
      receiver.received.length = 0;
      receiver.reply = ANSWER_OK;
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const rawBody = Buffer.concat(chunks);
      const request: ReceivedWebhook = { path: req.url ?? '', headers: req.headers, rawBody, body: JSON.parse(rawBody.toString('utf8')), receivedAt: Date.now() };
      receiver.received.push(request);
      const reply = await receiver.reply(request, receiver.received.length);
      if (reply === 'hold') {
        held.push(res);
        return;
      }
      res.writeHead(reply.status, reply.headers ?? {});
      res.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

/** A receiver for the file or the enclosing `describe` (suite-fixture.ts), closed after it. Set `reply` in a hook or test. */
export function useReceiver(): Receiver {
  return suiteFixture('useReceiver', startReceiver, (receiver) => receiver.close());
}
