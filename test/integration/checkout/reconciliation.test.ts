import { checkLedger } from '../../../src/modules/ledger/ledger-invariants';
import { LedgerAccount, LedgerEntry } from '../../../src/modules/ledger/ledger-entry.entity';
import { Payment } from '../../../src/modules/payments/payment.entity';
import { Refund } from '../../../src/modules/refunds/refund.entity';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { WebhookEvent } from '../../../src/modules/webhooks/webhook-event.entity';
import { adminClient, eventually } from '../../support/admin-client';
import { checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

jest.setTimeout(60_000);

/**
 * Small values so that a test never sleeps long (docs/checkout.md, "Reconciliation"). RECONCILE_AFTER_MS must stay
 * above the acquirer's answer time: a look-up while the refund call is still on its way finds nothing, and the
 * refund is sent again (under the same idempotency key). A loaded test machine takes a few hundred milliseconds.
 */
const AFTER_MS = 1000;
const INTERVAL_MS = 100;
const SETTINGS = { RECONCILE_AFTER_MS: String(AFTER_MS), RECONCILE_INTERVAL_MS: String(INTERVAL_MS), RATE_LIMIT_PER_MINUTE: '1000' };
/** "Within RECONCILE_AFTER_MS plus one sweep", with room for a slow shared CI machine. */
const SETTLES_WITHIN_MS = AFTER_MS + INTERVAL_MS + 3000;

/** Two instances on one database, both sweeping: how it runs scaled out. */
const a = useTestService(SETTINGS, 'reconcile');
const b = useTestService(SETTINGS, 'reconcile');

/** The payments and sellers this file made: the run's database is shared with tests that break the books on purpose. */
const ours = new Set<string>();

async function payWith(card: string) {
  const shop = await a.createShop();
  const id = (await sellerClient(a.url, shop.apiKey).create(VALID_PAYMENT)).body.data.id as string;
  ours.add(id).add(shop.seller.id);
  const answer = await checkoutClient(a.url).pay(id, card);
  return { shop, id, answer };
}

/** What check-ledger finds wrong about this file's payments and sellers. */
async function ourViolations() {
  return (await checkLedger(a.em())).violations.filter((v) => ours.has(v.subject));
}

/** A payment's journal as (account, kind, amount) lines, sorted: compared with a live answer's. */
async function journalOf(id: string): Promise<string[]> {
  const entries = await a.em().find(LedgerEntry, { paymentId: id });
  return entries.map((e) => `${e.account} ${e.kind} ${e.amount}`).sort();
}

/** The journal a live approval books (…4242), the yardstick for "the same transitions as a live answer". */
async function liveJournal(): Promise<string[]> {
  const { id } = await payWith('4242424242424242');
  expect((await reload(id)).status).toBe('completed');
  return journalOf(id);
}

const reload = (id: string) => a.em().findOneOrFail(Payment, { id }, { refresh: true });

test('…0341: charged but the answer is lost; both instances sweep, and it completes once with one credit, one fee, one event', async () => {
  const { shop, id, answer } = await payWith('4000000000000341');
  expect(answer.body.errors?.[0]?.extensions?.code ?? answer.body.errors?.[0]?.message).toBeTruthy();
  const stuck = await reload(id);
  expect(stuck.status).toBe('pending');
  expect(stuck.checkoutStage).toBe('processing');
  expect(await a.em().count(LedgerEntry, { paymentId: id })).toBe(0);

  const started = Date.now();
  // Besides both instances' timers, both sweep at the same moment: the lease and the conditional moves hold.
  await new Promise((r) => setTimeout(r, AFTER_MS));
  await Promise.all([a.services.reconciliation.sweep(), b.services.reconciliation.sweep(), a.services.reconciliation.sweep()]);
  await eventually(async () => (await reload(id)).status === 'completed', SETTLES_WITHIN_MS, 'the …0341 payment to complete');
  expect(Date.now() - started).toBeLessThan(SETTLES_WITHIN_MS);

  const payment = await reload(id);
  expect(payment.checkoutStage).toBe('finished');
  expect(payment.processorReference).toMatch(/^sim_auth_/);
  // One credit and one fee, exactly the journal of a live approval.
  const journal = await journalOf(id);
  expect(journal).toEqual(await liveJournal());
  expect(journal.filter((line) => line.startsWith(LedgerAccount.FEE_REVENUE))).toHaveLength(1);
  expect(await a.em().count(LedgerEntry, { paymentId: id, sellerId: shop.seller.id })).toBe(2);
  expect(await a.em().count(WebhookEvent, { paymentId: id })).toBe(1);
  expect((await sellerClient(b.url, shop.apiKey).retrieve(id)).body.data.status).toBe('completed');
  expect(await ourViolations()).toEqual([]);
});

test('…0416: the request never reached the acquirer; it ends failed (processing_error) with no ledger entry, and only its payment.failed event', async () => {
  const { shop, id } = await payWith('4000000000000416');
  expect((await reload(id)).checkoutStage).toBe('processing');
  await eventually(async () => (await reload(id)).status === 'failed', SETTLES_WITHIN_MS, 'the …0416 payment to fail');
  const payment = await reload(id);
  expect(payment.failureCode).toBe('processing_error');
  expect(payment.checkoutStage).toBe('finished');
  expect(await a.em().count(LedgerEntry, { paymentId: id })).toBe(0);
  // Written once, delivered only to shops that chose payment.failed (test/integration/webhooks/webhook-events.test.ts).
  expect((await a.em().find(WebhookEvent, { paymentId: id })).map((e) => e.type)).toEqual(['payment.failed']);
  expect((await sellerClient(a.url, shop.apiKey).retrieve(id)).body.data.status).toBe('failed');
  // Final: the page no longer takes a card, so a late request can never charge twice.
  await checkoutClient(b.url).pay(id, '4242424242424242');
  expect((await reload(id)).status).toBe('failed');
  expect(await ourViolations()).toEqual([]);
});

async function liveRefundJournal(support: Awaited<ReturnType<typeof adminClient>>, finance: Awaited<ReturnType<typeof adminClient>>) {
  const { id } = await payWith('4242424242424242');
  const { requestRefund } = await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "returned") { id } }`, { p: id });
  await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: requestRefund.id });
  await eventually(async () => (await reload(id)).status === 'refunded', 5000, 'the live refund');
  return journalOf(id);
}

test('a refund whose answer is lost settles as refunded once, with its journal', async () => {
  const { id } = await payWith('4000000000000341');
  await eventually(async () => (await reload(id)).status === 'completed', SETTLES_WITHIN_MS, 'the payment to complete');
  const support = await adminClient(a, AdminRole.SUPPORT);
  const finance = await adminClient(b, AdminRole.FINANCE);
  const { requestRefund } = await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "returned") { id } }`, { p: id });
  await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: requestRefund.id });
  // The refund job calls the acquirer, which refunds and loses the answer: the refund stays processing.
  await eventually(async () => (await a.em().findOneOrFail(Refund, { id: requestRefund.id }, { refresh: true })).attempts > 0, 5000, 'the refund call');
  await eventually(
    async () => (await a.em().findOneOrFail(Refund, { id: requestRefund.id }, { refresh: true })).status === 'refunded',
    SETTLES_WITHIN_MS + 1000,
    'the refund to settle',
  );
  const refund = await a.em().findOneOrFail(Refund, { id: requestRefund.id }, { refresh: true });
  expect(refund.attempts).toBe(1);
  expect(refund.processorReference).toMatch(/^sim_re_/);
  expect((await reload(id)).status).toBe('refunded');
  // The refund journal once: a live refund of a live payment books the same lines.
  expect(await journalOf(id)).toEqual(await liveRefundJournal(support, finance));
  const answer = await support.ok(`query ($id: ID!) { refund(id: $id) { status needsAttentionAt } }`, { id: refund.id });
  expect(answer.refund).toEqual({ status: 'REFUNDED', needsAttentionAt: null });
  expect(await ourViolations()).toEqual([]);
});
