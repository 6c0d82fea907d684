import { AuditEntry } from '../../../src/modules/audit/audit-entry.entity';
import { checkLedger } from '../../../src/modules/ledger/ledger-invariants';
import { LedgerEntry } from '../../../src/modules/ledger/ledger-entry.entity';
import { Payment } from '../../../src/modules/payments/payment.entity';
import { PaymentStatus } from '../../../src/modules/payments/payment-status';
import request from 'supertest';
import { approveLiveTestRefund, LIVE_TEST_REFUND_REASON } from '../../../src/modules/refunds/live-test-refund';
import { Refund } from '../../../src/modules/refunds/refund.entity';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { adminClient, eventually, graphql } from '../../support/admin-client';
import { checkoutClient } from '../../support/checkout-client';
import { dashboard, signUpSeller, STRONG_PASSWORD, type DashboardSession } from '../../support/dashboard-client';
import { useEmptyDatabase } from '../../support/databases';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';
import { useReceiver } from '../../support/webhook-receiver';

/**
 * Live tests (docs/dashboard.md, "Live test"): a signed-in seller's 50-cent payment, paid on the real checkout,
 * refunded automatically with no fee, its webhook events marked `"test": true`; at most 5 per shop per UTC day;
 * never from the REST API or an API key. A database of its own: check-ledger reads every seller's books.
 */
const database = useEmptyDatabase('payments_live_tests');
const receiver = useReceiver();
const service = useTestService(() => ({ DATABASE_URL: database.url, WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1', REFUND_SWEEP_INTERVAL_MS: '60000' }));
beforeEach(() => receiver.reset());

type Seller = Awaited<ReturnType<typeof signUpSeller>>;

/** A seller signed up on the dashboard whose webhooks (payment.completed and payment.refunded) go to the receiver. */
async function sellerWithWebhooks(): Promise<Seller> {
  const seller = await signUpSeller(service.url);
  const saved = await dashboard(service.url, 'SetWebhookUrl', { url: receiver.url, currentPassword: STRONG_PASSWORD }, seller.session);
  expect(saved.body.errors).toBeUndefined();
  // The seller's integration chooses its events with its key, as docs/reference.md says.
  const chosen = await graphql(service.url, `Bearer ${seller.apiKey}`, 'mutation { setWebhookEvents(events: ["payment.refunded"]) { id } }');
  expect(chosen.errors).toBeUndefined();
  return seller;
}

const runLiveTest = (session: Partial<DashboardSession>) => dashboard(service.url, 'RunLiveTest', {}, session);

async function startedLiveTest(seller: Seller): Promise<{ id: string; checkoutUrl: string }> {
  const res = await runLiveTest(seller.session);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.runLiveTest.payment;
}

const balanceOf = async (seller: Seller) => (await dashboard(service.url, 'Overview', { days: 1 }, seller.session)).body.data.balance;
const entriesOf = (paymentId: string) => service.em().find(LedgerEntry, { paymentId }, { orderBy: { id: 'asc' } });
const refundsOf = (paymentId: string) => service.em().find(Refund, { payment: paymentId }, { refresh: true });

async function paid(paymentId: string): Promise<void> {
  const answer = await checkoutClient(service.url).pay(paymentId, '4242424242424242');
  expect(answer.body.data.submitCard.status).toBe('COMPLETED');
}

async function refundedAutomatically(paymentId: string): Promise<Refund> {
  await eventually(async () => (await service.em().findOneOrFail(Payment, { id: paymentId }, { refresh: true })).status === PaymentStatus.REFUNDED, 15_000, 'the automatic refund');
  const [refund] = await refundsOf(paymentId);
  return refund;
}

test('a live test: 50 cents marked test, paid with a real card, its webhooks say "test": true, refunded at once by the service with no fee, the balance as it was, the books clean', async () => {
  const seller = await sellerWithWebhooks();
  const before = await balanceOf(seller);

  const started = await runLiveTest(seller.session);
  expect(started.body.errors).toBeUndefined();
  const { payment, allowance } = started.body.data.runLiveTest;
  expect(payment).toMatchObject({ amount: 50, currency: 'usd', status: 'PENDING', test: true, checkoutUrl: `https://pay.example.test/checkout/${payment.id}` });
  expect(allowance).toEqual({ dailyLimit: 5, usedToday: 1, remainingToday: 4 });
  const stored = await service.em().findOneOrFail(Payment, { id: payment.id }, { populate: ['shop'] });
  expect(stored.shop.id).toBe(seller.shopId);

  await paid(payment.id);
  const refund = await refundedAutomatically(payment.id);

  // Nobody asked and nobody reviewed: the service did both, and the audit log says so.
  expect(refund).toMatchObject({ amount: 50, status: 'refunded', reason: LIVE_TEST_REFUND_REASON, requestedBy: null, reviewedBy: null });
  const audit = await service.em().find(AuditEntry, { targetId: refund.id });
  expect(audit.map((entry) => [entry.actor, entry.action, entry.adminId])).toEqual([['system', 'refund.approved_automatically', null]]);

  // The seller's endpoint: both events carry "test": true beside the payment (and the refund).
  const bodies = (await receiver.waitFor(2)).map((r) => JSON.parse(r.rawBody.toString('utf8'))).sort((a, b) => a.sequence - b.sequence);
  expect(bodies.map((b) => [b.event, b.test, b.payment.id])).toEqual([['payment.completed', true, payment.id], ['payment.refunded', true, payment.id]]);
  expect(Object.keys(bodies[0])).toEqual(['id', 'event', 'sequence', 'payment', 'test', 'shop', 'timestamp']);
  expect(Object.keys(bodies[1])).toEqual(['id', 'event', 'sequence', 'payment', 'refund', 'test', 'shop', 'timestamp']);
  expect(bodies[1].refund).toMatchObject({ id: refund.id, amount: 50, status: 'refunded' });

  // No fee, and the test's own journals net to zero on the seller's balance.
  const entries = await entriesOf(payment.id);
  expect(entries.map((e) => [e.account, e.kind, e.amount])).toEqual([
    ['customer_funds', 'test_payment', -50], ['seller_balance', 'test_payment', 50],
    ['seller_balance', 'test_refund', -50], ['customer_funds', 'test_refund', 50],
  ]);
  const detail = (await dashboard(service.url, 'PaymentDetail', { id: payment.id }, seller.session)).body.data.payment;
  expect(detail).toMatchObject({ test: true, status: 'REFUNDED', fee: 0, netAmount: 50, refundedAmount: 50, refundableAmount: 0 });
  expect(await balanceOf(seller)).toMatchObject({ available: before.available, gross: before.gross, fees: before.fees, refunds: before.refunds });
  const lines = (await dashboard(service.url, 'BalanceTransactions', {}, seller.session)).body.data.balance.transactions.items;
  expect(lines.map((l: { kind: string; amount: number }) => [l.kind, l.amount]).sort()).toEqual([['test_payment', 50], ['test_refund', -50]]);

  // The seller's REST view of it is the ordinary payment shape, byte for byte (no new field over REST).
  const rest = await sellerClient(service.url, seller.apiKey).retrieve(payment.id);
  expect(Object.keys(rest.body.data)).toEqual(['id', 'amount', 'currency', 'status', 'checkout_url', 'customer_email', 'customer_name', 'metadata', 'created_at', 'completed_at']);

  expect((await checkLedger(service.em())).violations).toEqual([]);
});

test('an ordinary payment keeps its webhook bodies and REST answers as they were: no "test" anywhere, the fee charged, never refunded by the service', async () => {
  const seller = await sellerWithWebhooks();
  const created = await sellerClient(service.url, seller.apiKey).create({ ...VALID_PAYMENT, amount: 50 });
  expect(Object.keys(created.body.data)).not.toContain('test');
  await paid(created.body.data.id);
  const [event] = await receiver.waitFor(1);
  expect(Object.keys(JSON.parse(event.rawBody.toString('utf8')))).toEqual(['id', 'event', 'sequence', 'payment', 'shop', 'timestamp']);
  expect(await approveLiveTestRefund(service.em(), created.body.data.id)).toBeNull();
  await service.services.refunds.sweep();
  expect(await refundsOf(created.body.data.id)).toEqual([]);
  expect((await entriesOf(created.body.data.id)).filter((e) => e.kind === 'fee').map((e) => e.amount).sort()).toEqual([-8, 8]);
});

test('at most 5 live tests per shop per UTC day, counted under a lock (six at once: five made), per shop, and yesterday\'s do not count', async () => {
  const seller = await signUpSeller(service.url);
  const answers = await Promise.all(Array.from({ length: 6 }, () => runLiveTest(seller.session)));
  const refused = answers.filter((res) => res.body.errors);
  expect(answers.filter((res) => res.body.data?.runLiveTest)).toHaveLength(5);
  expect(refused.map((res) => [res.body.errors[0].extensions.code, res.body.errors[0].message])).toEqual([
    ['LIVE_TEST_LIMIT_REACHED', 'This shop has run its 5 live tests for today (UTC); try again after midnight UTC'],
  ]);
  expect(await service.em().count(Payment, { shop: seller.shopId, test: true })).toBe(5);
  expect((await dashboard(service.url, 'Developers', {}, seller.session)).body.data.liveTestAllowance).toEqual({ dailyLimit: 5, usedToday: 5, remainingToday: 0 });

  // Another seller's shop has its own five.
  const other = await signUpSeller(service.url);
  expect((await runLiveTest(other.session)).body.data.runLiveTest.allowance.usedToday).toBe(1);

  // The day is the UTC day: tests made before today's midnight (UTC) no longer count.
  const midnight = new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00Z');
  await service.em().nativeUpdate(Payment, { shop: seller.shopId, test: true }, { createdAt: new Date(midnight.getTime() - 1000) });
  expect((await runLiveTest(seller.session)).body.data.runLiveTest.allowance).toEqual({ dailyLimit: 5, usedToday: 1, remainingToday: 4 });
});

test('attacks: no fee-free payment of another amount through REST or GraphQL, no live test with an API key or another shop, no amount from the caller', async () => {
  const seller = await signUpSeller(service.url);
  const key = `Bearer ${seller.apiKey}`;
  const rest = sellerClient(service.url, seller.apiKey);

  // REST: `test` is an unknown field, ignored as every unknown field is: an ordinary payment, answered as before.
  const plain = await rest.create({ ...VALID_PAYMENT, amount: 5000 });
  const disguised = await rest.create({ ...VALID_PAYMENT, amount: 5000, test: true, live_test: true });
  expect(disguised.status).toBe(200);
  expect(Object.keys(disguised.body.data)).toEqual(Object.keys(plain.body.data));
  expect((await service.em().findOneOrFail(Payment, { id: disguised.body.data.id })).test).toBe(false);
  await paid(disguised.body.data.id);
  expect((await entriesOf(disguised.body.data.id)).some((e) => e.kind === 'fee' && e.amount === -750)).toBe(true);

  // GraphQL with the key: the create input has no `test`, and the live test is a dashboard session's only.
  const viaInput = await graphql(service.url, key, 'mutation { createPayment(input: { amount: 5000, currency: "usd", returnUrl: "https://shop.example.com/r", test: true }) { payment { id } } }');
  expect(viaInput.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  const viaKey = await graphql(service.url, key, 'mutation { runLiveTest { payment { id } } }');
  expect(viaKey.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  const allowanceViaKey = await graphql(service.url, key, '{ liveTestAllowance { usedToday } }');
  expect(allowanceViaKey.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  // Nor with an admin token: the service never makes a fee-free payment for anyone but the signed-in seller.
  const owner = await adminClient(service, AdminRole.OWNER);
  expect((await owner.run('mutation { runLiveTest { payment { id } } }')).errors?.[0].extensions?.code).toBe('FORBIDDEN');

  // The session cannot name an amount or a shop: the mutation takes no argument at all.
  for (const argument of ['amount: 5000', `shopId: "${seller.shopId}"`, 'test: true']) {
    const res = await dashboardDocument(seller.session, `mutation { runLiveTest(${argument}) { payment { id } } }`);
    expect(res.body.errors?.[0].extensions?.code).toMatch(/GRAPHQL_VALIDATION_FAILED|OPERATION_NOT_ALLOWED/);
  }
  // A session cookie without its CSRF token (a cross-site form) starts nothing.
  expect((await runLiveTest({ cookie: seller.session.cookie })).body.errors?.[0].extensions?.code).toBe('CSRF_TOKEN_INVALID');
  // No session at all: the dashboard's document without credentials.
  expect((await runLiveTest({})).body.errors).toBeDefined();
  expect(await service.em().count(Payment, { shop: seller.shopId, test: true })).toBe(0);

  // Even written straight to the database, a test can only be of the live-test amount.
  await expect(service.em().nativeUpdate(Payment, { id: plain.body.data.id }, { test: true })).rejects.toThrow(/payments_test_amount_check/);

  // Another seller sees nothing of this seller's live test.
  const test = await startedLiveTest(seller);
  const stranger = await signUpSeller(service.url);
  const peek = await dashboard(service.url, 'PaymentDetail', { id: test.id }, stranger.session);
  expect(peek.body.errors?.[0].extensions?.code).toBe('PAYMENT_NOT_FOUND');
});

/** A document of our own, sent with a dashboard session's credentials. */
function dashboardDocument(session: DashboardSession, query: string) {
  return request(service.url).post('/graphql').set('Content-Type', 'application/json').set('Cookie', session.cookie).set('X-CSRF-Token', session.csrfToken).send({ query });
}

test('the refund is made once, whoever asks: the hand-off, replays of it and the sweep at once; a lost hand-off is caught by the sweep', async () => {
  const seller = await sellerWithWebhooks();
  const first = await startedLiveTest(seller);
  await paid(first.id);
  const replays = await Promise.all(Array.from({ length: 5 }, () => approveLiveTestRefund(service.em(), first.id)));
  await Promise.all([service.services.refunds.sweep(), refundedAutomatically(first.id)]);
  expect(replays.filter(Boolean).length).toBeLessThanOrEqual(1);
  expect((await refundsOf(first.id)).map((r) => r.status)).toEqual(['refunded']);
  expect((await entriesOf(first.id)).filter((e) => e.kind === 'test_refund')).toHaveLength(2);

  // The completion's hand-off is lost (an instance stopped right after the commit): the sweep refunds it.
  const second = await startedLiveTest(seller);
  await checkoutHandOffPaused(() => paid(second.id));
  expect(await refundsOf(second.id)).toEqual([]);
  expect(await service.services.refunds.sweep()).toBeGreaterThanOrEqual(1);
  expect((await refundedAutomatically(second.id)).status).toBe('refunded');
  expect((await checkLedger(service.em())).violations).toEqual([]);
});

test('check-ledger reports a live test booked with a fee, a live-test journal on an ordinary payment, and a refunded test that does not net to zero', async () => {
  const seller = await signUpSeller(service.url);
  const rest = sellerClient(service.url, seller.apiKey);
  // An ordinary 50-cent payment (fee booked), then marked as a test behind the ledger's back.
  const feeCharged = (await rest.create({ ...VALID_PAYMENT, amount: 50 })).body.data.id;
  await paid(feeCharged);
  await service.em().nativeUpdate(Payment, { id: feeCharged }, { test: true });
  // A live test marked refunded with no refund carried out: its credit still stands.
  const test = await startedLiveTest(seller);
  await checkoutHandOffPaused(() => paid(test.id));
  await service.em().nativeUpdate(Payment, { id: test.id }, { status: PaymentStatus.REFUNDED });

  const report = await checkLedger(service.em());
  const bySubject = (subject: string) => report.violations.filter((v) => v.subject === subject).map((v) => v.invariant).sort();
  expect(bySubject(feeCharged)).toEqual(['live_test_booked_without_fee']);
  expect(bySubject(test.id)).toEqual(['live_test_nets_to_zero', 'refund_entries_match_refunds']);
  expect(bySubject(seller.sellerId)).toEqual(['balance_matches_records']);

  // Put back, so the other tests' books stay clean.
  await service.em().nativeUpdate(Payment, { id: feeCharged }, { test: false });
  await service.em().nativeUpdate(Payment, { id: test.id }, { status: PaymentStatus.COMPLETED });
  await service.services.refunds.sweep();
  await refundedAutomatically(test.id);
  expect((await checkLedger(service.em())).violations).toEqual([]);

  // A refunded live test passed off as an ordinary payment: its journals are a live test's, it has no fee.
  await service.em().nativeUpdate(Payment, { id: test.id }, { test: false });
  const disguised = await checkLedger(service.em());
  expect(disguised.violations.filter((v) => v.subject === test.id).map((v) => [v.invariant, v.detail]).sort()).toEqual([
    ['completed_payment_booked_once', 'refunded'],
    ['live_test_booked_without_fee', 'live-test journal on a payment that is not a live test'],
  ]);
  await service.em().nativeUpdate(Payment, { id: test.id }, { test: true });
  expect((await checkLedger(service.em())).violations).toEqual([]);
});

/** Runs `work` with the completion's hand-off to the refund jobs switched off (the sweep then makes the refund). */
async function checkoutHandOffPaused(work: () => Promise<void>): Promise<void> {
  const checkout = service.services.checkout;
  const handOff = checkout.refundLiveTest;
  checkout.refundLiveTest = undefined;
  try {
    await work();
  } finally {
    checkout.refundLiveTest = handOff;
  }
}
