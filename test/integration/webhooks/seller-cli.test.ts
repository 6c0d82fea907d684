import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import request from 'supertest';
import { WebhookEvent } from '../../../src/modules/webhooks/webhook-event.entity';
import type { NewShop } from '../../../src/modules/identity/shop-provisioning';
import { checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';
import { useReceiver, type ReceivedWebhook } from '../../support/webhook-receiver';

/**
 * The seller's command-line tool (tools/seller-cli/seller.mjs, docs/integrate.md, "Events on your machine") run as a
 * developer runs it, a child process against the running service: `listen` forwards each event to a local receiver as
 * a delivery, signed with the shop's secret; killed connections are resumed with every event exactly once; `trigger`
 * sends a test event to every listen; `logs` prints the shop's request log.
 */
const SELLER = path.resolve(__dirname, '../../../tools/seller-cli/seller.mjs');
const service = useTestService({ RATE_LIMIT_PER_MINUTE: '10000', WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1', WEBHOOK_TEST_DELIVERIES_PER_MINUTE: '100' });
const receiver = useReceiver();

interface Seller {
  child: ChildProcessWithoutNullStreams;
  output(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  stop(): Promise<number | null>;
}

const running: Seller[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((seller) => seller.stop()));
  receiver.reset();
});

function seller(args: string[], apiKey: string, apiUrl = service.url): Seller {
  const child = spawn(process.execPath, [SELLER, ...args], { env: { PATH: process.env.PATH, PAYMENTS_API_URL: apiUrl, PAYMENTS_API_KEY: apiKey } });
  let seen = '';
  let code: number | null | undefined;
  child.stdout.on('data', (d) => (seen += d));
  child.stderr.on('data', (d) => (seen += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve((code = c))));
  const handle: Seller = {
    child,
    output: () => seen,
    async waitFor(pattern, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(seen)) {
        if (code !== undefined || Date.now() > deadline) throw new Error(`seller did not print ${pattern} (exit ${code}); it printed:\n${seen}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    stop: () => {
      if (code === undefined) child.kill('SIGTERM');
      return exited;
    },
  };
  running.push(handle);
  return handle;
}

/** Runs a command to its end (it exits by itself). */
function runToEnd(args: string[], apiKey: string): Promise<{ code: number | null; output: string }> {
  const command = seller(args, apiKey);
  return new Promise((resolve) => command.child.on('exit', (code) => resolve({ code, output: command.output() })));
}

/** Both signatures, checked as the seller's receiver checks them (docs/integrate.md, examples/verify-webhook.mjs). */
function verified(received: ReceivedWebhook, secret: string): boolean {
  const same = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);
  const headers: IncomingHttpHeaders = received.headers;
  const service = createHmac('sha256', Buffer.from(secret, 'utf8')).update(received.rawBody).digest();
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const standard = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.`).update(received.rawBody).digest();
  const stamp = Number(headers['webhook-timestamp']);
  return (
    same(Buffer.from(String(headers['x-service-signature']), 'hex'), service) &&
    String(headers['webhook-signature']).split(' ').some((entry) => entry.startsWith('v1,') && same(Buffer.from(entry.slice(3), 'base64'), standard)) &&
    Math.abs(Date.now() / 1000 - stamp) < 300
  );
}

async function paidPayment(shop: NewShop): Promise<string> {
  const created = await sellerClient(service.url, shop.apiKey).create(VALID_PAYMENT);
  expect(created.status).toBe(200);
  const id = created.body.data.id as string;
  const paid = await checkoutClient(service.url).pay(id, '4242 4242 4242 4242');
  expect(paid.body.errors).toBeUndefined();
  return id;
}

const completions = (shopId: string) => receiver.received.filter((r) => r.body.event === 'payment.completed' && r.body.shop.id === shopId);

async function completionsOf(shopId: string, count: number, timeoutMs = 30_000): Promise<ReceivedWebhook[]> {
  const deadline = Date.now() + timeoutMs;
  while (completions(shopId).length < count) {
    if (Date.now() > deadline) throw new Error(`${completions(shopId).length} of ${count} payment.completed arrived`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return completions(shopId);
}

describe('listen', () => {
  test("forwards payment.completed of a payment paid on the checkout page to a local receiver, signed with the shop's secret, as a delivery sends it", async () => {
    const shop = await service.createShop({ shopName: 'Listening Bakery' });
    const listen = seller(['listen', '--forward-to', receiver.url, '--secret', shop.webhookSecret], shop.apiKey);
    await listen.waitFor(/Ready: forwarding.*\n.*Signing with/);
    expect(listen.output()).toContain('Signing with the webhook secret you gave.');
    expect(listen.output()).not.toContain(shop.webhookSecret);

    const paymentId = await paidPayment(shop);
    const [received] = await completionsOf(shop.shop.id, 1);
    expect(received.body.payment.id).toBe(paymentId);
    expect(verified(received, shop.webhookSecret)).toBe(true);
    expect(verified(received, `whsec_${Buffer.from('not the secret').toString('base64')}`)).toBe(false);
    // The body is the event's, byte for byte; the headers are a delivery's.
    const event = await service.em().findOneOrFail(WebhookEvent, { id: received.body.id });
    expect(received.rawBody.toString('utf8')).toBe(event.body);
    expect(received.headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': 'HostedCheckout-Webhooks/1', 'webhook-id': event.id });
    expect(received.headers['x-service-test']).toBeUndefined();
    await listen.waitFor(new RegExp(`payment\\.completed  ${event.id}  -> ${receiver.url.replace(/[.]/g, '\\.')}  200`));
  });

  test('without --secret, signs with a secret made for the session and prints it once', async () => {
    const shop = await service.createShop();
    const listen = seller(['listen', '--forward-to', receiver.url], shop.apiKey);
    await listen.waitFor(/made for this session.*: (whsec_\S+)/);
    const secret = /made for this session.*: (whsec_\S+)/.exec(listen.output())![1];
    expect(secret).not.toBe(shop.webhookSecret);
    await paidPayment(shop);
    const [received] = await completionsOf(shop.shop.id, 1);
    expect(verified(received, secret)).toBe(true);
    expect(verified(received, shop.webhookSecret)).toBe(false);
  });

  test('the stream killed mid-way, twice: after each reconnect every event arrives, in order, exactly once', async () => {
    const shop = await service.createShop();
    // A proxy between the tool and the service whose connections the test cuts, as a network or a restart would.
    const port = new URL(service.url).port;
    const sockets = new Set<net.Socket>();
    const proxy = net.createServer((client) => {
      const upstream = net.connect(Number(port), '127.0.0.1');
      client.pipe(upstream).pipe(client);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => sockets.delete(socket));
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const cut = () => [...sockets].forEach((socket) => socket.destroy());
    try {
      const listen = seller(['listen', '--forward-to', receiver.url, '--secret', shop.webhookSecret], shop.apiKey, `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`);
      await listen.waitFor(/Ready: forwarding.*\n.*Signing with/);
      const paid: string[] = [];
      paid.push(await paidPayment(shop), await paidPayment(shop));
      await completionsOf(shop.shop.id, 2);
      cut();
      // Written while no stream is open: they wait in the outbox for the resumed stream.
      paid.push(await paidPayment(shop), await paidPayment(shop));
      await listen.waitFor(/reconnected; resuming after evt_/);
      paid.push(await paidPayment(shop));
      await completionsOf(shop.shop.id, 5);
      cut();
      paid.push(await paidPayment(shop), await paidPayment(shop));
      const all = await completionsOf(shop.shop.id, 7);
      await new Promise((resolve) => setTimeout(resolve, 1500)); // a repeat would come now
      const events = completions(shop.shop.id);
      expect(events.map((r) => r.body.payment.id)).toEqual(paid);
      expect(new Set(events.map((r) => r.body.id)).size).toBe(events.length);
      expect(all.every((r) => verified(r, shop.webhookSecret))).toBe(true);
      expect(listen.output().match(/reconnected; resuming after/g)?.length).toBeGreaterThanOrEqual(2);
    } finally {
      cut();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  test('a key the service refuses ends listen with the refusal', async () => {
    const { code, output } = await runToEnd(['listen', '--forward-to', receiver.url], `svc_live_${'0'.repeat(64)}`);
    expect(code).toBe(1);
    expect(output).toContain('401 Invalid API key');
  });
});

describe('trigger', () => {
  test('sends a signed test event of the type to every listen, and to the webhook URL only when the shop receives the type', async () => {
    const shop = await service.createShop();
    const listen = seller(['listen', '--forward-to', `${receiver.url}/listen`, '--secret', shop.webhookSecret], shop.apiKey);
    const choosy = seller(['listen', '--forward-to', `${receiver.url}/completed-only`, '--events', 'payment.completed', '--secret', shop.webhookSecret], shop.apiKey);
    await listen.waitFor(/Ready: forwarding.*\n.*Signing with/);
    await choosy.waitFor(/Ready: forwarding.*\n.*Signing with/);

    const noUrl = await runToEnd(['trigger', 'payment.failed'], shop.apiKey);
    expect(noUrl.code).toBe(0);
    expect(noUrl.output).toMatch(/Triggered payment\.failed \(test\) evt_\w+/);
    expect(noUrl.output).toContain('not to a webhook URL');
    const eventId = /Triggered payment\.failed \(test\) (evt_\w+)/.exec(noUrl.output)![1];
    await receiver.waitFor(1);
    const [forwarded] = receiver.received;
    expect(forwarded.path).toBe('/hooks/listen');
    expect(forwarded.body).toMatchObject({ id: eventId, event: 'payment.failed', payment: { status: 'failed', completed_at: null } });
    expect(forwarded.headers['x-service-test']).toBe('true');
    expect(verified(forwarded, shop.webhookSecret)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.received.filter((r) => r.path === '/hooks/completed-only')).toEqual([]); // --events left it out

    // With a webhook URL that receives payment.refunded: a delivery too, with the same bytes.
    const graphql = (query: string) => request(service.url).post('/graphql').set('Authorization', `Bearer ${shop.apiKey}`).send({ query });
    expect((await graphql(`mutation { setWebhookUrl(url: "${receiver.url}/hook") { id } }`)).body.errors).toBeUndefined();
    expect((await graphql('mutation { setWebhookEvents(events: ["payment.refunded"]) { id } }')).body.errors).toBeUndefined();
    const withUrl = await runToEnd(['trigger', 'payment.refunded'], shop.apiKey);
    expect(withUrl.output).toMatch(/to your webhook URL: delivery whd_\w+/);
    const both = (await receiver.waitFor(3)).filter((r) => r.body.event === 'payment.refunded');
    expect(both.map((r) => r.path).sort()).toEqual(['/hooks/hook', '/hooks/listen']);
    expect(both[0].rawBody.equals(both[1].rawBody)).toBe(true);
    expect((both[0].body as unknown as { refund: { status: string } }).refund.status).toBe('refunded');
  });

  test('an unknown event is refused with the service\'s message', async () => {
    const shop = await service.createShop();
    const { code, output } = await runToEnd(['trigger', 'payment.exploded'], shop.apiKey);
    expect(code).toBe(1);
    expect(output).toContain('Webhook events must be among');
  });
});

describe('logs', () => {
  test("prints the shop's latest API requests, failed ones with their code and message, never the key", async () => {
    const shop = await service.createShop();
    const client = sellerClient(service.url, shop.apiKey);
    await client.create(VALID_PAYMENT, { 'Idempotency-Key': 'order-cli-1' });
    await client.retrieve('pay_000000000000000000000000');
    let printed = '';
    const deadline = Date.now() + 10_000;
    while (!/PAYMENT_NOT_FOUND/.test(printed) && Date.now() < deadline) printed = (await runToEnd(['logs', '--failed'], shop.apiKey)).output;
    expect(printed).toMatch(/404 {2}GET {2}\/api\/v1\/payments\/pay_000000000000000000000000 {2}\d+ ms {2}req_\w+ {2}PAYMENT_NOT_FOUND: Payment not found/);
    expect(printed).not.toContain('order-cli-1'); // succeeded: not a failure
    const all = (await runToEnd(['logs', '--limit', '50'], shop.apiKey)).output;
    expect(all).toMatch(/200 {2}POST \/api\/v1\/payments {2}\d+ ms {2}\S+ {2}Idempotency-Key order-cli-1/);
    expect(all).not.toContain(shop.apiKey);
    expect(all).not.toContain(shop.apiKey.slice(9, 30));
  });
});
