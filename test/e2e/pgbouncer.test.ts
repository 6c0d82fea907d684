import { Client } from 'pg';
import { LedgerEntry } from '../../src/modules/ledger/ledger-entry.entity';
import { Payment } from '../../src/modules/payments/payment.entity';
import { WebhookEvent } from '../../src/modules/webhooks/webhook-event.entity';
import { eventually } from '../support/admin-client';
import { checkoutClient } from '../support/checkout-client';
import { createEmptyDatabase, dropDatabase } from '../support/databases';
import { startPgBouncer, type OwnPgBouncer } from '../support/pgbouncer';
import { runNode, watchNode, type WatchedProcess } from '../support/processes';
import { sellerClient, VALID_PAYMENT } from '../support/seller-client';
import { TEST_REDIS_URL, testRun } from '../support/test-env';
import { startTestService, type TestService } from '../support/test-service';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { FAST_WEBHOOKS, settledDelivery, shopActor } from '../support/webhook-support';

/**
 * The service, the webhook worker and the CLI through PgBouncer in transaction mode (docs/scaling.md,
 * "PgBouncer"): consecutive transactions of one client may run on different server connections, and a server
 * connection serves many clients, so nothing may rely on session state.
 */
jest.setTimeout(120_000);

let bouncer: OwnPgBouncer;
let database: { name: string; url: string };
let pooledUrl: string;
let receiver: Receiver;
let services: TestService[] = [];
let worker: WatchedProcess | undefined;
const namespace = `pgb${Date.now().toString(36)}`;

function pooledEnv(): Record<string, string> {
  return { ...FAST_WEBHOOKS, DATABASE_URL: pooledUrl, DATABASE_POOLER: 'pgbouncer-transaction', WEBHOOK_WORKERS_IN_SERVICE: '0', RECONCILE_AFTER_MS: '300', RECONCILE_INTERVAL_MS: '100' };
}

/** A direct connection to the database, around PgBouncer: what PostgreSQL itself sees. */
async function direct<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  database = await createEmptyDatabase('payments_pgbouncer');
  // The statement time-out comes from the database (or the role) behind a pooler, not from each connection.
  await direct((c) => c.query(`alter database "${database.name}" set statement_timeout = '5s'`));
  bouncer = await startPgBouncer();
  pooledUrl = bouncer.urlFor(database.url);
  receiver = await startReceiver();
});
afterAll(async () => {
  await worker?.stop('SIGKILL');
  for (const service of services) await service.stop();
  await receiver?.close();
  await bouncer?.stop();
  await dropDatabase(database.name);
});

test('two instances starting together on an empty database migrate it once, under a lock that does not outlive its transaction', async () => {
  services = await Promise.all([startTestService(pooledEnv(), namespace), startTestService(pooledEnv(), namespace)]);
  const applied = services.flatMap((s) => s.logs.filter((line) => line.msg === 'applied database migrations'));
  expect(applied).toHaveLength(1);
  // A session-level lock taken through PgBouncer would stay held on a server connection after its client left.
  const held = await direct((c) => c.query(`select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database where l.locktype = 'advisory' and d.datname = $1`, [database.name]));
  expect(held.rows[0].n).toBe(0);
  const [{ statement_timeout }] = await services[0].em().execute<{ statement_timeout: string }[]>('show statement_timeout');
  expect(statement_timeout).toBe('5s');
  expect(services[0].logs.filter((line) => /has no statement_timeout/.test(String(line.msg)))).toEqual([]);
});

test('without DATABASE_POOLER the per-connection statement time-out is refused by PgBouncer, so the start fails loudly', async () => {
  const { DATABASE_POOLER: _, ...env } = pooledEnv();
  await expect(startTestService(env, namespace)).rejects.toThrow(/statement_timeout/);
});

test('the CLI creates a shop through PgBouncer, and the key works at once', async () => {
  const result = await runNode('cli.js', ['create-shop', '--email', 'pooled@shop.example', '--name', 'Pooled', '--webhook-url', receiver.url], {
    ...pooledEnv(),
    LOG_LEVEL: 'warn',
  });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const { api_key: apiKey } = JSON.parse(result.stdout);
  expect((await sellerClient(services[1].url, apiKey).test()).body.data.shop.shop_name).toBe('Pooled');
});

test('concurrent creates with one Idempotency-Key make one payment', async () => {
  const shop = await services[0].createShop();
  const headers = { 'Idempotency-Key': `order-${Date.now()}` };
  const answers = await Promise.all(services.flatMap((s) => [1, 2, 3].map(() => sellerClient(s.url, shop.apiKey).create(VALID_PAYMENT, headers))));
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
  expect(await services[0].em().count(Payment, { shop: shop.shop.id })).toBe(1);
});

test('a completion books its journal and its event, and the worker (through PgBouncer) delivers the webhook', async () => {
  const { databaseUrl: _, redisPrefix } = testRun();
  worker = watchNode('worker.js', [], { ...pooledEnv(), REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `${redisPrefix}${namespace}:`, LOG_LEVEL: 'info' });
  await worker.waitFor(/webhook worker started/);
  const shop = await services[0].createShop({ webhookUrl: receiver.url });
  const paymentId = await shopActor(services[0], shop.apiKey).completePayment();
  expect(await services[1].em().count(LedgerEntry, { paymentId })).toBe(4);
  expect(await services[1].em().count(WebhookEvent, { paymentId })).toBe(1);
  const delivery = await settledDelivery(services[1], paymentId);
  expect(delivery.status).toBe('delivered');
  const [received] = await receiver.waitFor(1);
  expect(JSON.parse(received.rawBody.toString()).payment.id).toBe(paymentId);
});

test('reconciliation settles a payment whose acquirer answer was lost, once, through PgBouncer', async () => {
  const shop = await services[0].createShop();
  const id = (await sellerClient(services[0].url, shop.apiKey).create(VALID_PAYMENT)).body.data.id as string;
  await checkoutClient(services[1].url).pay(id, '4000000000000341');
  await eventually(async () => (await services[0].em().findOneOrFail(Payment, { id }, { refresh: true })).status === 'completed', 10_000, 'the payment to complete');
  expect(await services[0].em().count(LedgerEntry, { paymentId: id })).toBe(4);
  expect(await services[0].em().count(WebhookEvent, { paymentId: id })).toBe(1);
});

test('check-ledger through PgBouncer finds the books in order', async () => {
  const result = await runNode('cli.js', ['check-ledger'], { ...pooledEnv(), LOG_LEVEL: 'warn' });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
});
