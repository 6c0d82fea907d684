import { AdminRole } from '../../../src/modules/admins/admin-role';
import { WebhookDelivery } from '../../../src/modules/webhooks/webhook-delivery.entity';
import { WebhookEvent } from '../../../src/modules/webhooks/webhook-event.entity';
import { adminClient, completedPayment, eventually, graphql, payableShop, type AdminClient } from '../../support/admin-client';
import { checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { startReceiver, type Receiver, type ReceivedWebhook } from '../../support/webhook-receiver';
import { FAST_WEBHOOKS, graphqlAs, sleep } from '../../support/webhook-support';
import { useTestService, type TestService } from '../../support/test-service';

jest.setTimeout(90_000);

/**
 * Every optional event (docs/reference.md, "Webhooks"): a shop that chose it receives it once, signed and
 * shaped like payment.completed; a shop that did not choose it receives nothing but payment.completed.
 */
const receivers: Receiver[] = [];
const shops: string[] = [];
afterAll(async () => {
  // Every instance's relay serves the whole shared test database: leave no delivery pending towards these
  // receivers' ports, which another file may reuse once they are closed.
  await eventually(async () => (await service.em().count(WebhookDelivery, { shop: { $in: shops }, status: 'pending' })) === 0, 20_000, 'deliveries to settle');
});
const service = useTestService({
  ...FAST_WEBHOOKS,
  // Not lower: every instance sweeps the whole shared test database, and a short RECONCILE_AFTER_MS would
  // look up (and fail) other files' payments still at a slow simulated acquirer.
  RECONCILE_AFTER_MS: '3000',
  RECONCILE_INTERVAL_MS: '200',
  REFUND_SWEEP_INTERVAL_MS: '250',
  RATE_LIMIT_PER_MINUTE: '1000',
});
let support: AdminClient;
let finance: AdminClient;
type NewShop = Awaited<ReturnType<TestService['createShop']>>;
const ALL = ['payment.failed', 'payment.refunded', 'refund.failed', 'withdrawal.paid', 'withdrawal.rejected'];

beforeAll(async () => {
  support = await adminClient(service, AdminRole.SUPPORT);
  finance = await adminClient(service, AdminRole.FINANCE);
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

/** A shop with a receiver of its own; `events` is its choice (none: the default, payment.completed only). */
async function shopReceiving(events: string[]): Promise<{ shop: NewShop; receiver: Receiver }> {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const shop = await payableShop(service, { webhookUrl: receiver.url });
  shops.push(shop.shop.id);
  if (events.length) {
    const chosen = await graphqlAs(service, shop.apiKey)(`mutation ($e: [String!]!) { setWebhookEvents(events: $e) { webhookEvents } }`, { e: events });
    expect(chosen.data?.setWebhookEvents.webhookEvents).toEqual(events);
  }
  return { shop, receiver };
}

const subjectOf = (hook: ReceivedWebhook) => {
  const body = hook.body as unknown as Record<string, { id: string } | undefined>;
  return (body.refund ?? body.withdrawal ?? body.payment)!.id;
};
const kinds = (receiver: Receiver) => receiver.received.map((r) => r.body.event).sort();

async function hookOf(receiver: Receiver, event: string, subject: string): Promise<ReceivedWebhook> {
  return (await eventually(async () => receiver.received.find((r) => r.body.event === event && subjectOf(r) === subject), 20_000, `${event} about ${subject}`))!;
}

/** Runs the same story for a shop: each optional event's cause, once. Returns the subjects by event. */
async function story(shop: NewShop): Promise<Record<string, string>> {
  const sql = (query: string, params: unknown[]) => service.em().getConnection().execute(query, params);
  const asSeller = (query: string, variables: Record<string, unknown>) => graphql(service.url, `Bearer ${shop.apiKey}`, query, variables);

  // payment.failed from the reconciliation sweep: …0416 never reached the acquirer.
  const lost = (await sellerClient(service.url, shop.apiKey).create(VALID_PAYMENT)).body.data.id as string;
  await checkoutClient(service.url).pay(lost, '4000000000000416');

  // payment.refunded: a refund carried out.
  const { paymentId: refunded } = await completedPayment(service, 10_000, shop);
  const r1 = (await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "returned") { id } }`, { p: refunded })).requestRefund.id as string;
  await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: r1 });

  // refund.failed: the acquirer refuses a refund of an authorization it does not know.
  const { paymentId: kept } = await completedPayment(service, 20_000, shop);
  await sql(`update payments set processor_reference = 'not_ours_123' where id = ?`, [kept]);
  const r2 = (await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "returned") { id } }`, { p: kept })).requestRefund.id as string;
  await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: r2 });

  // withdrawal.paid and withdrawal.rejected, once the refunds are settled: an approved refund holds its amount until then.
  const refundStatus = async (id: string) => (await support.ok(`query ($id: ID!) { refund(id: $id) { status } }`, { id })).refund.status as string;
  await eventually(async () => (await refundStatus(r1)) === 'REFUNDED' && (await refundStatus(r2)) === 'FAILED', 20_000, 'both refunds settled');
  const ask = `mutation ($amount: SafeInt!) { requestWithdrawal(amount: $amount) { id } }`;
  const w1 = (await asSeller(ask, { amount: 2000 })).data.requestWithdrawal.id as string;
  const w2 = (await asSeller(ask, { amount: 1500 })).data.requestWithdrawal.id as string;
  await finance.ok(`mutation ($id: ID!) { approveWithdrawal(id: $id) { id } }`, { id: w1 });
  await finance.ok(`mutation ($id: ID!) { markWithdrawalPaid(id: $id, reference: "TRX-1") { id } }`, { id: w1 });
  await finance.ok(`mutation ($id: ID!) { rejectWithdrawal(id: $id, reason: "Bank account name does not match") { id } }`, { id: w2 });

  await eventually(async () => (await service.em().count(WebhookEvent, { type: { $in: ALL }, shop: shop.shop.id })) === 5, 20_000, 'five optional events in the outbox');
  return { 'payment.failed': lost, 'payment.refunded': r1, 'refund.failed': r2, 'withdrawal.paid': w1, 'withdrawal.rejected': w2 };
}

test('a shop that chose every event receives each once, with its documented payload; a shop that did not receives none of them', async () => {
  const chooser = await shopReceiving(ALL);
  const plain = await shopReceiving([]);
  const [subjects, plainSubjects] = [await story(chooser.shop), await story(plain.shop)];

  const failed = await hookOf(chooser.receiver, 'payment.failed', subjects['payment.failed']);
  expect(failed.body.payment).toMatchObject({ status: 'failed', completed_at: null });

  const refunded = await hookOf(chooser.receiver, 'payment.refunded', subjects['payment.refunded']);
  expect(refunded.body.payment).toMatchObject({ amount: 10_000, status: 'refunded' });
  expect((refunded.body as any).refund).toEqual({
    id: subjects['payment.refunded'], amount: 10_000, status: 'refunded', failure_reason: null,
    created_at: expect.any(String), refunded_at: expect.any(String),
  });

  const refundFailed = await hookOf(chooser.receiver, 'refund.failed', subjects['refund.failed']);
  expect(refundFailed.body.payment).toMatchObject({ amount: 20_000, status: 'completed' });
  expect((refundFailed.body as any).refund).toMatchObject({ status: 'failed', failure_reason: 'unknown_authorization', refunded_at: null });

  const paid = await hookOf(chooser.receiver, 'withdrawal.paid', subjects['withdrawal.paid']);
  expect(Object.keys(paid.body)).toEqual(['id', 'event', 'sequence', 'withdrawal', 'shop', 'timestamp']);
  expect((paid.body as any).withdrawal).toEqual({
    id: subjects['withdrawal.paid'], amount: 2000, status: 'paid', rejection_reason: null, payout_reference: 'TRX-1',
    created_at: expect.any(String), paid_at: expect.any(String),
  });
  expect(paid.body).toMatchObject({ sequence: 1, shop: { id: chooser.shop.shop.id } });
  const rejected = await hookOf(chooser.receiver, 'withdrawal.rejected', subjects['withdrawal.rejected']);
  expect((rejected.body as any).withdrawal).toMatchObject({ status: 'rejected', rejection_reason: 'Bank account name does not match', paid_at: null });

  // Exactly once: no second delivery of any of them arrives, and the outbox holds one event per cause.
  await sleep(1000);
  const seen = chooser.receiver.received.map((r) => `${r.body.event} ${subjectOf(r)}`);
  expect(seen.length).toBe(new Set(seen).size);
  for (const [event, subject] of Object.entries(subjects)) expect(seen).toContain(`${event} ${subject}`);
  expect(kinds(chooser.receiver).filter((k) => k !== 'payment.completed')).toEqual([...ALL].sort());

  // The default shop: its causes happened too (events written), but only payment.completed was delivered.
  expect(kinds(plain.receiver).every((k) => k === 'payment.completed')).toBe(true);
  expect(plain.receiver.received.length).toBe(2);
  expect(await service.em().count(WebhookEvent, { shop: plain.shop.shop.id, type: { $in: ALL } })).toBe(5);
  expect(await service.em().count(WebhookDelivery, { shop: plain.shop.shop.id })).toBe(2);
  expect(Object.keys(plainSubjects)).toEqual(Object.keys(subjects));
});
