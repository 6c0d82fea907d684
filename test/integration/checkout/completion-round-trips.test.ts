import { Client } from 'pg';
import { LedgerEntry } from '../../../src/modules/ledger/ledger-entry.entity';
import { Payment } from '../../../src/modules/payments/payment.entity';
import { WebhookDelivery } from '../../../src/modules/webhooks/webhook-delivery.entity';
import { WebhookEvent } from '../../../src/modules/webhooks/webhook-event.entity';
import { checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

/**
 * How many times one card completion (SubmitCard, card 4242…) waits on PostgreSQL: every statement the pg
 * driver sends while the request runs is one round trip (BEGIN and COMMIT included). The service's
 * background work (relay polls, sweeps) is slowed right down so that only the request's statements count.
 * The budget (it was 21 before the card path became plain SQL): 4: read, claim, the simulated acquirer's record,
 * the completion statement. The answer is not read back: it is the payment as the completion statement left it.
 * Two pollers cannot be slowed past a few seconds (the mail relay, the acquirer inbox): their statements are
 * told apart by what they read and left out of the count, as is the request log's batch (the create's entry, written a
 * moment after its answer).
 */
export const COMPLETION_ROUND_TRIP_BUDGET = 4;

/** The mail relay's look for due mails, the acquirer inbox's claim, the request log's batch: background work, not the request's. */
const POLLER_STATEMENT = /^\s*(select "id", "attempt_count".* from "mail_outbox"|update "adyen_notifications" set "next_attempt_at"|insert into "api_requests")/s;

const service = useTestService({
  WEBHOOK_POLL_INTERVAL_MS: '60000',
  WEBHOOK_WORKERS_IN_SERVICE: '0',
  RECONCILE_INTERVAL_MS: '3600000',
  REFUND_SWEEP_INTERVAL_MS: '3600000',
  MAIL_POLL_INTERVAL_MS: '60000',
});
const sent: string[] = [];
let counting = false;
const originalQuery = Client.prototype.query;

beforeAll(async () => {
  // Counting, not changing: every call goes on to the real driver and the real database.
  Client.prototype.query = function countedQuery(this: Client, ...args: unknown[]) {
    const sql = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string })?.text);
    if (counting && !POLLER_STATEMENT.test(sql)) sent.push(sql);
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof Client.prototype.query;
});
afterAll(async () => {
  Client.prototype.query = originalQuery;
});

async function countCompletion(webhookUrl?: string) {
  const shop = await service.createShop({ webhookUrl });
  const id = (await sellerClient(service.url, shop.apiKey).create(VALID_PAYMENT)).body.data.id as string;
  const customer = checkoutClient(service.url);
  await customer.view(id); // the page was open before the customer paid
  sent.length = 0;
  counting = true;
  const answer = await customer.pay(id, '4242424242424242');
  counting = false;
  expect(answer.body.data.submitCard.status).toBe('COMPLETED');
  // The answer built from what the completion statement wrote is the view a fresh read gives.
  expect(answer.body.data.submitCard).toEqual((await customer.view(id)).body.data.checkoutPayment);
  return { id, statements: [...sent], shop };
}

test('one card completion waits on PostgreSQL at most 4 times, and books everything a completion books', async () => {
  const { id, statements, shop } = await countCompletion();
  expect(statements.length).toBeLessThanOrEqual(COMPLETION_ROUND_TRIP_BUDGET);
  // One of them is the simulated acquirer recording its authorization (it stands in for the acquirer's own
  // system); the service's own are: read the payment, claim it, the completion statement.
  const ours = statements.filter((sql) => !/simulated_acquirer_operations/.test(sql));
  expect(ours).toHaveLength(3);
  expect(ours.filter((sql) => /^\s*(BEGIN|COMMIT)/i.test(sql))).toEqual([]);

  const payment = await service.em().findOneOrFail(Payment, { id }, { refresh: true });
  expect(payment).toMatchObject({ status: 'completed', checkoutStage: 'finished', cardLast4: '4242' });
  expect(payment.completedAt).toBeInstanceOf(Date);
  expect(payment.processorReference).toMatch(/^sim_auth_/);
  const entries = await service.em().find(LedgerEntry, { paymentId: id }, { orderBy: { id: 'asc' } });
  expect(entries.map((e) => [e.account, e.kind, e.amount, e.sellerId])).toEqual([
    ['customer_funds', 'payment', -VALID_PAYMENT.amount, null],
    ['seller_balance', 'payment', VALID_PAYMENT.amount, shop.seller.id],
    ['seller_balance', 'fee', -Math.round(VALID_PAYMENT.amount * 0.15), shop.seller.id],
    ['fee_revenue', 'fee', Math.round(VALID_PAYMENT.amount * 0.15), null],
  ]);
  expect(new Set(entries.map((e) => e.journalId)).size).toBe(1);
  expect(await service.em().count(WebhookEvent, { paymentId: id })).toBe(1);
  // No webhook URL: no delivery.
  expect(await service.em().count(WebhookDelivery, { paymentId: id })).toBe(0);
});

test('with a webhook URL the same statements also write the delivery, due at once', async () => {
  const { id, statements } = await countCompletion('https://hooks.example.test/payments');
  // The relay wakes after the commit and may already be reading; the request's own share is still bounded.
  expect(statements.filter((sql) => !/webhook_deliveries/.test(sql) || /insert/i.test(sql)).length).toBeLessThanOrEqual(COMPLETION_ROUND_TRIP_BUDGET);
  const event = await service.em().findOneOrFail(WebhookEvent, { paymentId: id });
  const delivery = await service.em().findOneOrFail(WebhookDelivery, { paymentId: id });
  expect(delivery.event.id).toBe(event.id);
  expect(delivery.status).toBe('pending');
  const body = JSON.parse(event.body);
  expect(Object.keys(body)).toEqual(['id', 'event', 'sequence', 'payment', 'shop', 'timestamp']);
  expect(body).toMatchObject({ id: event.id, event: 'payment.completed', sequence: 1, payment: { id, status: 'completed', amount: VALID_PAYMENT.amount } });
  expect(body.payment.completed_at).toEqual(expect.any(String));
  expect(body.timestamp).toBe(event.createdAt.toISOString());
});
