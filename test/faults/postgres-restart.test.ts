import request from 'supertest';
import { checkLedger } from '../../src/modules/ledger/ledger-invariants';
import { Payment } from '../../src/modules/payments/payment.entity';
import { WebhookEvent } from '../../src/modules/webhooks/webhook-event.entity';
import { checkoutClient } from '../support/checkout-client';
import { useOwnPostgres } from '../support/postgres-server';
import { sellerClient, VALID_PAYMENT } from '../support/seller-client';
import { useTestService } from '../support/test-service';

jest.setTimeout(120_000);

const pg = useOwnPostgres();
const service = useTestService(() => ({ DATABASE_URL: pg.url, RATE_LIMIT_PER_MINUTE: '100000' }));

const DEADLINE_MS = 20_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Outcome {
  kind: 'create' | 'pay';
  /** When the request was sent (epoch ms). */
  at: number;
  key: string;
  status: number;
  body: { success?: boolean; error?: string; data?: { id: string } };
  ms: number;
}

test('PostgreSQL restarted during a burst: answers are 200 or 5xx envelopes within the deadline, and every accepted request is intact', async () => {
  const { apiKey } = await service.createShop();
  const seller = sellerClient(service.url, apiKey);
  const customer = checkoutClient(service.url);
  const payable = await Promise.all(Array.from({ length: 40 }, async () => (await seller.create(VALID_PAYMENT)).body.data.id as string));

  const outcomes: Outcome[] = [];
  let stop = false;
  const worker = async (n: number) => {
    for (let i = 0; !stop; i++) {
      const started = Date.now();
      if (i % 3 === 2 && payable.length > 0) {
        const id = payable.pop()!;
        const res = await customer.pay(id, '4242424242424242').timeout(DEADLINE_MS);
        const error = res.body.errors?.[0];
        outcomes.push({ kind: 'pay', at: started, key: id, status: error ? error.extensions.status ?? 500 : 200, body: res.body, ms: Date.now() - started });
      } else {
        const key = `burst-${n}-${i}`;
        const res = await seller.create({ ...VALID_PAYMENT, metadata: { key } }, { 'Idempotency-Key': key }).timeout(DEADLINE_MS);
        outcomes.push({ kind: 'create', at: started, key, status: res.status, body: res.body, ms: Date.now() - started });
      }
    }
  };
  const burst = Promise.all(Array.from({ length: 8 }, (_, n) => worker(n)));
  await sleep(1500);
  pg.stop('fast');
  await sleep(2500);
  pg.start();
  const restartedAt = Date.now();
  await sleep(2500);
  stop = true;
  await burst;

  // Every answer came before the deadline and was a success or a 5xx envelope: never a hang, never a 4xx.
  expect(outcomes.every((o) => o.ms < DEADLINE_MS)).toBe(true);
  const failures = outcomes.filter((o) => o.status !== 200);
  expect(failures.length).toBeGreaterThan(0);
  expect(failures.every((o) => o.status >= 500)).toBe(true);
  for (const o of failures.filter((f) => f.kind === 'create')) {
    expect(o.body).toEqual({ success: false, error: expect.stringMatching(/^(Service temporarily unavailable|An unexpected error occurred)$/) });
  }
  expect(failures.some((o) => o.status === 503)).toBe(true);
  // Served before the outage, and again after the restart (how soon depends on the machine's load).
  expect(outcomes.some((o) => o.status === 200 && o.at < restartedAt - 2500)).toBe(true);
  expect(outcomes.some((o) => o.status === 200 && o.at > restartedAt)).toBe(true);

  // After recovery: every accepted create is stored as answered; a retry of a failed one creates it once.
  expect((await request(service.url).get('/healthz')).status).toBe(200);
  for (const o of outcomes.filter((x) => x.kind === 'create' && x.status === 200)) {
    expect((await seller.retrieve(o.body.data!.id)).body.data).toMatchObject({ id: o.body.data!.id, metadata: { key: o.key } });
  }
  for (const o of outcomes.filter((x) => x.kind === 'create' && x.status !== 200)) {
    const retried = await seller.create({ ...VALID_PAYMENT, metadata: { key: o.key } }, { 'Idempotency-Key': o.key });
    expect(retried.status).toBe(200);
    expect(await service.em().count(Payment, { metadata: { key: o.key } as never })).toBe(1);
  }

  // Money: every completed payment has its entries and exactly one outbox event; the books hold.
  const completed = await service.em().find(Payment, { status: 'completed' as never });
  expect(completed.length).toBeGreaterThan(0);
  for (const payment of completed) expect(await service.em().count(WebhookEvent, { paymentId: payment.id })).toBe(1);
  expect((await checkLedger(service.em())).violations).toEqual([]);
});
