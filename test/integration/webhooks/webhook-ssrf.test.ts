import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { Shop } from '../../../src/modules/identity/shop.entity';
import { httpWebhookSender } from '../../../src/modules/webhooks/webhook-sender';
import { graphqlAs, newAdminToken, settledDelivery, shopActor } from '../../support/webhook-support';
import { suiteFixture } from '../../support/suite-fixture';
import { useTestService, type TestService } from '../../support/test-service';

/**
 * Production mode (WEBHOOK_ALLOW_PRIVATE_NETWORKS unset). Only loopback addresses are ever connected
 * to here, and the point of each test is that nothing connects at all.
 */
const service = useTestService({ WEBHOOK_RETRY_BASE_DELAY_MS: '20', WEBHOOK_MAX_ATTEMPTS: '1', WEBHOOK_POLL_INTERVAL_MS: '50' });
let shop: Awaited<ReturnType<TestService['createShop']>>;
let seller: ReturnType<typeof graphqlAs>;

/** A TCP server on 127.0.0.1 and ::1 that only counts who connects. */
async function startTrap() {
  const state = { connections: 0 };
  const servers = [net.createServer(), net.createServer()];
  for (const server of servers) server.on('connection', (socket) => (state.connections++, socket.destroy()));
  await new Promise<void>((resolve) => servers[0].listen(0, '127.0.0.1', resolve));
  const port = (servers[0].address() as AddressInfo).port;
  await new Promise<void>((resolve) => servers[1].listen(port, '::1', resolve).on('error', () => resolve()));
  return {
    port,
    get connections() {
      return state.connections;
    },
    close: async () => {
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
}

const trap = suiteFixture('trap', startTrap, (started) => started.close());

beforeAll(async () => {
  shop = await service.createShop();
  seller = graphqlAs(service, shop.apiKey);
});

const SET_URL = 'mutation($url: String) { setWebhookUrl(url: $url) { webhookUrl } }';

describe('webhook URLs are checked when set', () => {
  test.each([
    ['https://127.0.0.1/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://10.0.0.1/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://[::1]/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://localhost:8443/hooks', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://169.254.169.254/latest/meta-data/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://100.64.1.1/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://[fd00::1]/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://[::ffff:10.0.0.1]/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://[::127.0.0.1]/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://[64:ff9b::169.254.169.254]/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://[2002:7f00:1::1]/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://2130706433/', 'WEBHOOK_URL_FORBIDDEN'],
    ['https://0x7f000001/', 'WEBHOOK_URL_FORBIDDEN'],
    ['http://x@127.0.0.1', 'WEBHOOK_URL_INVALID'],
    ['http://hooks.example.com/', 'WEBHOOK_URL_INVALID'],
  ])('%s is refused (%s)', async (url, code) => {
    const res = await seller(SET_URL, { url });
    expect(res.errors?.[0].extensions.code).toBe(code);
    expect((await service.em().findOneOrFail(Shop, shop.shop.id)).webhookUrl).toBeNull();
  });

  test('a public HTTPS URL is accepted (DNS that does not answer yet is no reason to refuse)', async () => {
    const res = await seller(SET_URL, { url: 'https://hooks.shop.example/payments' });
    expect(res.data?.setWebhookUrl).toEqual({ webhookUrl: 'https://hooks.shop.example/payments' });
  });
});

describe('and again at delivery time, against the address connected to', () => {
  const loopbackNames = () => {
    const name = os.hostname();
    return new Promise<string[]>((resolve) =>
      dns.lookup(name, { all: true }, (error, addresses) => resolve(!error && addresses.every((a) => /^127\.|^::1$/.test(a.address)) ? [name] : [])),
    );
  };

  /** A URL that slipped past the check when it was set (an older rule, a name that resolved elsewhere then). */
  async function deliverTo(url: string) {
    const target = await service.createShop();
    await service.em().nativeUpdate(Shop, { id: target.shop.id }, { webhookUrl: url });
    return settledDelivery(service, await shopActor(service, target.apiKey).completePayment());
  }

  test.each(['https://127.0.0.1:PORT/hooks', 'https://[::1]:PORT/hooks', 'https://[::127.0.0.1]:PORT/hooks', 'https://localhost:PORT/hooks', 'https://2130706433:PORT/'])(
    '%s: refused, nothing connects, the attempt says why',
    async (template) => {
      const delivery = await deliverTo(template.replace('PORT', String(trap.port)));
      expect(delivery.status).toBe('failed');
      expect(delivery.attempts[0].error).toMatch(/^refused: /);
      expect(delivery.attempts[0].httpStatus).toBeNull();
      expect(trap.connections).toBe(0);
    },
  );

  test('a name that resolves to loopback (this machine\'s own host name) is refused after DNS, before connecting', async () => {
    const names = await loopbackNames();
    if (names.length === 0) return; // this host name does not resolve to loopback here; the next test covers the same path
    const delivery = await deliverTo(`https://${names[0]}:${trap.port}/hooks`);
    expect(delivery.attempts[0].error).toBe('refused: 127.0.0.1 is not a public address');
    expect(trap.connections).toBe(0);
  });

  test('DNS rebinding: a public-looking name answering with a loopback address is refused at connect time', async () => {
    const rebinding: net.LookupFunction = (_host, options, callback) => {
      if ((options as dns.LookupAllOptions).all) (callback as (e: null, a: dns.LookupAddress[]) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
      else (callback as (e: null, a: string, f: number) => void)(null, '127.0.0.1', 4);
    };
    const sender = httpWebhookSender({ timeoutMs: 2000, allowPrivateNetworks: false, lookup: rebinding });
    const answer = await sender.send({ url: `https://hooks.shop.example:${trap.port}/`, body: '{}', headers: {} });
    expect(answer).toMatchObject({ status: null, error: 'refused: 127.0.0.1 is not a public address' });
    expect(trap.connections).toBe(0);
  });

  test.each(['::7f00:1', '::ffff:7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::1', '2001:0:4136:e378:8000:63bf:80ff:fffe'])(
    'a name answering with %s (an IPv6 spelling of 127.0.0.1) is refused at connect time',
    async (address) => {
      const embedded: net.LookupFunction = (_host, options, callback) => {
        if ((options as dns.LookupAllOptions).all) (callback as (e: null, a: dns.LookupAddress[]) => void)(null, [{ address, family: 6 }]);
        else (callback as (e: null, a: string, f: number) => void)(null, address, 6);
      };
      const sender = httpWebhookSender({ timeoutMs: 2000, allowPrivateNetworks: false, lookup: embedded });
      const answer = await sender.send({ url: `https://hooks.shop.example:${trap.port}/`, body: '{}', headers: {} });
      expect(answer).toMatchObject({ status: null, error: `refused: ${address} is not a public address` });
      expect(trap.connections).toBe(0);
    },
  );
});

describe('the admin view of an SSRF refusal', () => {
  test('admins see the refused attempt in the delivery log', async () => {
    const admin = graphqlAs(service, await newAdminToken(service));
    const target = await service.createShop();
    await service.em().nativeUpdate(Shop, { id: target.shop.id }, { webhookUrl: `https://127.0.0.1:${trap.port}/` });
    await settledDelivery(service, await shopActor(service, target.apiKey).completePayment());
    const res = await admin(`query($shop: ID) { webhookDeliveries(shopId: $shop) { items { status attempts { error url } } } }`, { shop: target.shop.id });
    expect(res.data?.webhookDeliveries.items).toEqual([
      { status: 'FAILED', attempts: [{ error: expect.stringMatching(/^refused: Webhook URL must not point to a loopback/), url: `https://127.0.0.1:${trap.port}/` }] },
    ]);
  });
});
