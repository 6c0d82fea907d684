import { randomBytes } from 'node:crypto';
import { checkLedger } from '../../src/ledger/ledger-invariants';
import { LedgerEntry } from '../../src/ledger/ledger-entry.entity';
import { Payment } from '../../src/payments/payment.entity';
import { WebhookEvent } from '../../src/webhooks/webhook-event.entity';
import { eventually } from '../support/admin-client';
import { checkoutClient } from '../support/checkout-client';
import { createEmptyDatabase, dropDatabase } from '../support/databases';
import { freePort, watchNode, type WatchedProcess } from '../support/processes';
import { sellerClient, VALID_PAYMENT } from '../support/seller-client';
import { TEST_REDIS_URL, testRun } from '../support/test-env';
import { startTestService, type TestService } from '../support/test-service';

jest.setTimeout(90_000);

let database: { name: string; url: string };
/** Reads the database; never sweeps in time (its RECONCILE_AFTER_MS is an hour). */
let inspector: TestService;
let running: WatchedProcess | undefined;

beforeAll(async () => {
  database = await createEmptyDatabase('payments_reconcile');
  inspector = await startTestService({ DATABASE_URL: database.url, RECONCILE_AFTER_MS: '3600000' });
});
afterAll(async () => {
  await running?.stop('SIGKILL');
  await inspector.stop();
  await dropDatabase(database.name);
});

/** The built service (`npm start`) as its own process. */
async function startProcess(port: number, reconcileAfterMs: number): Promise<string> {
  running = watchNode('main.js', [], {
    PORT: String(port), DATABASE_URL: database.url, REDIS_URL: TEST_REDIS_URL, LOG_LEVEL: 'info',
    REDIS_KEY_PREFIX: `${testRun().redisPrefix}reconcile-${randomBytes(3).toString('hex')}:`,
    RECONCILE_AFTER_MS: String(reconcileAfterMs), RECONCILE_INTERVAL_MS: '100',
    CHECKOUT_SUBMISSIONS_PER_CLIENT: '100000', RATE_LIMIT_PER_MINUTE: '100000',
  });
  await running.waitFor(/payment service listening/);
  return `http://127.0.0.1:${port}`;
}

test('SIGKILL of the instance that made the …0341 call: after a restart it completes once, from what the acquirer kept', async () => {
  const port = await freePort();
  const url = await startProcess(port, 3_600_000);
  const { apiKey, shop } = await inspector.createShop();
  const id = (await sellerClient(url, apiKey).create(VALID_PAYMENT)).body.data.id as string;
  await checkoutClient(url).pay(id, '4000000000000341');
  expect((await inspector.em().findOneOrFail(Payment, id)).checkoutStage).toBe('processing');
  await running!.stop('SIGKILL');

  // A new process: nothing of the old one's memory, only the database (ours and the simulated acquirer's).
  await startProcess(port, 200);
  const em = inspector.em();
  await eventually(async () => (await em.findOneOrFail(Payment, { id }, { refresh: true })).status === 'completed', 10_000, 'the payment to complete after the restart');
  expect(await em.count(LedgerEntry, { payment: id, seller: shop.seller.id })).toBe(2);
  expect(await em.count(WebhookEvent, { payment: id })).toBe(1);
  expect((await checkLedger(em)).violations).toEqual([]);
  await running!.stop('SIGTERM');
});
