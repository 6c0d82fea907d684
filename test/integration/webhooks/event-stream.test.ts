import http, { type IncomingHttpHeaders } from 'node:http';
import { ApiKey } from '../../../src/modules/identity/api-key.entity';
import { Shop } from '../../../src/modules/identity/shop.entity';
import { emit } from '../../../src/modules/webhooks/outbox';
import { latestSettledEvent } from '../../../src/modules/webhooks/event-stream-store';
import { WebhookEvent } from '../../../src/modules/webhooks/webhook-event.entity';
import { eventually } from '../../support/admin-client';
import { checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { startTestService, useTestService } from '../../support/test-service';

/**
 * GET /api/v1/events/stream (docs/reference.md, "Event stream"): Server-Sent Events of the shop's events behind the
 * facade's authentication and rate limit; resumed after `Last-Event-ID` with nothing repeated; another shop's event
 * refused as a cursor; at most five streams of a shop at once; ended when the key stops working, and when the service
 * drains, so that shutting down waits for no stream.
 */
const service = useTestService({ RATE_LIMIT_PER_MINUTE: '10000' });

interface Message {
  id?: string;
  event: string;
  data: string;
}

interface Stream {
  status: number;
  headers: IncomingHttpHeaders;
  messages: Message[];
  /** The answer's text as received (a refusal's envelope). */
  text(): string;
  ended: Promise<void>;
  waitFor(count: number, timeoutMs?: number): Promise<Message[]>;
  close(): void;
}

const open: Stream[] = [];
afterEach(() => open.splice(0).forEach((stream) => stream.close()));

/** A stream of the shop, read as a client reads one (the answer's headers first). */
function stream(apiKey: string, lastEventId?: string, baseUrl = service.url): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey}`, accept: 'text/event-stream' };
    if (lastEventId) headers['last-event-id'] = lastEventId;
    const req = http.get(`${baseUrl}/api/v1/events/stream`, { headers }, (res) => {
      let text = '';
      let buffer = '';
      const messages: Message[] = [];
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split('\n').filter((line) => !line.startsWith(':') && !line.startsWith('retry:'));
          if (lines.length === 0) continue;
          const field = (name: string) => lines.filter((l) => l.startsWith(`${name}: `)).map((l) => l.slice(name.length + 2));
          messages.push({ id: field('id')[0], event: field('event')[0] ?? 'message', data: field('data').join('\n') });
        }
      });
      const ended = new Promise<void>((done) => res.on('close', () => done()));
      const handle: Stream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        messages,
        text: () => text,
        ended,
        async waitFor(count, timeoutMs = 15_000) {
          const deadline = Date.now() + timeoutMs;
          while (messages.length < count) {
            if (Date.now() > deadline) throw new Error(`${messages.length} of ${count} messages came:\n${text}`);
            await new Promise((r) => setTimeout(r, 20));
          }
          return messages;
        },
        close: () => req.destroy(),
      };
      open.push(handle);
      resolve(handle);
    });
    req.on('error', reject);
  });
}

async function paid(apiKey: string): Promise<string> {
  const id = (await sellerClient(service.url, apiKey).create(VALID_PAYMENT)).body.data.id as string;
  expect((await checkoutClient(service.url).pay(id, '4242 4242 4242 4242')).body.errors).toBeUndefined();
  return id;
}

test('the stream: its headers, a ready message saying where it starts, then each event of the shop as a delivery would carry it', async () => {
  const shop = await service.createShop();
  const events = await stream(shop.apiKey);
  expect(events.status).toBe(200);
  expect(events.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  expect(events.headers['cache-control']).toBe('no-store');
  expect(events.headers['x-request-id']).toMatch(/^req_/);
  expect(events.headers['x-ratelimit-limit']).toBe('10000');
  const [ready] = await events.waitFor(1);
  expect(ready).toEqual({ id: '0', event: 'ready', data: '{}' });

  const paymentId = await paid(shop.apiKey);
  const [, completed] = await events.waitFor(2);
  const stored = await service.em().findOneOrFail(WebhookEvent, { id: completed.id! });
  expect(completed.event).toBe('payment.completed');
  expect(JSON.parse(completed.data)).toEqual({ test: false, body: stored.body });
  expect(JSON.parse(stored.body).payment.id).toBe(paymentId);

  // A stream opened now starts after that event.
  const later = await stream(shop.apiKey);
  expect((await later.waitFor(1))[0]).toEqual({ id: completed.id, event: 'ready', data: '{}' });
});

test('resumed after Last-Event-ID: the events written meanwhile, none of those read before', async () => {
  const shop = await service.createShop();
  const first = await stream(shop.apiKey);
  await first.waitFor(1);
  await paid(shop.apiKey);
  const [, seen] = await first.waitFor(2);
  first.close();
  const missed = [await paid(shop.apiKey), await paid(shop.apiKey)];
  const resumed = await stream(shop.apiKey, seen.id);
  const messages = await resumed.waitFor(3);
  expect(messages[0]).toEqual({ id: seen.id, event: 'ready', data: '{}' });
  expect(messages.slice(1).map((m) => JSON.parse(JSON.parse(m.data).body).payment.id)).toEqual(missed);
  await new Promise((r) => setTimeout(r, 1500));
  expect(resumed.messages).toHaveLength(3);
});

test('a stream far behind catches up at once, not a page a poll: 250 events written while away arrive in order', async () => {
  // Polls a minute apart: the three pages arrive within the wait only if none waits for a poll, however busy the machine.
  const slowPolls = await startTestService({ RATE_LIMIT_PER_MINUTE: '10000', EVENT_STREAM_POLL_MS: '60000' });
  try {
    const shop = await slowPolls.createShop();
    const first = await stream(shop.apiKey, undefined, slowPolls.url);
    const [ready] = await first.waitFor(1);
    first.close();
    const em = slowPolls.em();
    const owner = await em.findOneOrFail(Shop, { id: shop.shop.id });
    const written: string[] = [];
    for (let i = 0; i < 250; i++) written.push((await emit(em, { triggeredFor: owner, type: 'payment.failed', subjects: () => ({ payment: { n: i } }) })).id);
    await em.flush();
    // A stream sends an event once every transaction older than the one that wrote it has ended, in any database of
    // the server (other suites run beside this one): the catch-up is timed from then, not from a poll later.
    await eventually(async () => (await latestSettledEvent(slowPolls.em(), shop.shop.id))?.id === written[written.length - 1], 30_000, 'the events settled');
    const resumed = await stream(shop.apiKey, ready.id, slowPolls.url);
    const messages = await resumed.waitFor(251, 45_000);
    expect(messages.slice(1).map((m) => m.id)).toEqual(written);
  } finally {
    open.splice(0).forEach((s) => s.close());
    await slowPolls.stop();
  }
}, 90_000);

test("another shop's event, or anything else, as Last-Event-ID: 400 in the envelope, before any stream opens", async () => {
  const mine = await service.createShop();
  const theirs = await service.createShop();
  const theirStream = await stream(theirs.apiKey);
  await paid(theirs.apiKey);
  const [, their] = await theirStream.waitFor(2);
  for (const cursor of [their.id!, 'evt_000000000000000000000000', 'garbage']) {
    const refused = await stream(mine.apiKey, cursor);
    await refused.ended;
    expect([refused.status, refused.headers['content-type'], JSON.parse(refused.text())]).toEqual([
      400, 'application/json; charset=utf-8', { success: false, error: 'Last-Event-ID must be the id of an event of this shop, or 0' },
    ]);
  }
});

test('at most five streams of a shop at once: the sixth is 429 with Retry-After; one closed, a new one opens', async () => {
  const shop = await service.createShop();
  const five = await Promise.all([1, 2, 3, 4, 5].map(() => stream(shop.apiKey)));
  await Promise.all(five.map((s) => s.waitFor(1)));
  const sixth = await stream(shop.apiKey);
  await sixth.ended;
  expect([sixth.status, sixth.headers['retry-after'], JSON.parse(sixth.text()).error]).toEqual([429, '60', 'Too many event streams: at most 5 open at once per shop. Close one and try again.']);
  // Another shop is not counted with it.
  expect((await stream((await service.createShop()).apiKey)).status).toBe(200);
  five[0].close();
  await new Promise((r) => setTimeout(r, 200));
  expect((await stream(shop.apiKey)).status).toBe(200);
});

test('a key revoked while its stream is open: the stream says so and ends', async () => {
  const shop = await service.createShop();
  const events = await stream(shop.apiKey);
  await events.waitFor(1);
  await service.em().nativeUpdate(ApiKey, { shop: shop.shop.id }, { revokedAt: new Date() });
  await service.services.credentials.invalidateShop(shop.shop.id);
  await events.ended;
  expect(events.messages.at(-1)).toEqual({ id: undefined, event: 'error', data: JSON.stringify({ error: 'Invalid API key' }) });
});

test('a service draining for shutdown ends its streams: stopping it waits for none', async () => {
  const other = await startTestService({ RATE_LIMIT_PER_MINUTE: '10000' });
  try {
    const shop = await other.createShop();
    const events = await stream(shop.apiKey, undefined, other.url);
    await events.waitFor(1);
    const started = Date.now();
    await other.stop();
    await events.ended;
    expect(Date.now() - started).toBeLessThan(10_000);
  } catch (error) {
    await other.stop().catch(() => undefined);
    throw error;
  }
});
