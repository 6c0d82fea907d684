import { checkLedger } from '../../../src/modules/ledger/ledger-invariants';
import { LedgerAccount, LedgerEntry } from '../../../src/modules/ledger/ledger-entry.entity';
import { sellerBalance } from '../../../src/modules/ledger/ledger.service';
import { Refund } from '../../../src/modules/refunds/refund.entity';
import { WebhookEvent } from '../../../src/modules/webhooks/webhook-event.entity';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { adminClient, completedPayment, eventually, type AdminClient } from '../../support/admin-client';
import { useTestService } from '../../support/test-service';

/**
 * Partial refunds (docs/admin.md, "Refunds"): any amount up to what remains, several per payment, each approved
 * by finance; the payment stays `completed` until its refunds add up to it; the fee is kept.
 */
const service = useTestService({ SIMULATED_REFUND_DELAY_MS: '50', REFUND_SWEEP_INTERVAL_MS: '200' }, 'partial-refunds');
let support: AdminClient;
let finance: AdminClient;
const ours = new Set<string>();

beforeAll(async () => {
  support = await adminClient(service, AdminRole.SUPPORT);
  finance = await adminClient(service, AdminRole.FINANCE);
});

const REQUEST = `mutation ($p: ID!, $amount: SafeInt) { requestRefund(paymentId: $p, reason: "part of the order came back", amount: $amount) { id amount status } }`;
const APPROVE = `mutation ($id: ID!) { approveRefund(id: $id) { id } }`;
const refundOf = (id: string) => service.em().findOneOrFail(Refund, { id }, { refresh: true });

async function paid(amount = 10_000) {
  const payment = await completedPayment(service, amount);
  ours.add(payment.paymentId).add(payment.shop.seller.id);
  return payment;
}

async function refunded(paymentId: string, amount: number | null) {
  const { requestRefund } = await support.ok(REQUEST, { p: paymentId, amount });
  await finance.ok(APPROVE, { id: requestRefund.id });
  await eventually(async () => (await refundOf(requestRefund.id)).status === 'refunded', 10_000, 'the refund to be carried out');
  return requestRefund.id as string;
}

async function ourViolations() {
  return (await checkLedger(service.em())).violations.filter((v) => ours.has(v.subject));
}

test('a partial refund, then the rest: completed until the refunds add up, then refunded; each debits its own amount, the fee is kept', async () => {
  const { seller, paymentId, shop } = await paid(10_000);
  expect(await sellerBalance(service.em(), shop.seller.id)).toBe(8500n);

  const first = await refunded(paymentId, 2500);
  expect((await seller.retrieve(paymentId)).body.data.status).toBe('completed');
  expect(await sellerBalance(service.em(), shop.seller.id)).toBe(6000n);

  const rest = await refunded(paymentId, null);
  expect((await refundOf(rest)).amount).toBe(7500);
  const after = (await seller.retrieve(paymentId)).body.data;
  expect(after.status).toBe('refunded');
  // The REST answer keeps its shape: no new field for partial refunds.
  expect(Object.keys(after).sort()).toEqual(['amount', 'checkout_url', 'completed_at', 'created_at', 'currency', 'customer_email', 'customer_name', 'id', 'metadata', 'status']);
  expect(await sellerBalance(service.em(), shop.seller.id)).toBe(-1500n);

  const debits = await service.em().find(LedgerEntry, { paymentId, kind: 'refund', account: LedgerAccount.SELLER_BALANCE }, { orderBy: { id: 'asc' } });
  expect(debits.map((e) => [e.refundId, e.amount])).toEqual([[first, -2500], [rest, -7500]]);
  // payment.refunded carries each refund's amount; the last one shows the payment refunded.
  const events = await service.em().find(WebhookEvent, { paymentId, type: 'payment.refunded' }, { orderBy: { sequence: 'asc' } });
  expect(events.map((e) => JSON.parse(e.body)).map((b) => [b.refund.amount, b.payment.status])).toEqual([[2500, 'completed'], [7500, 'refunded']]);
  expect(await ourViolations()).toEqual([]);
});

test('an amount above what remains is refused, counting requests still open; a rejected request gives its amount back', async () => {
  const { paymentId } = await paid(10_000);
  const open = (await support.ok(REQUEST, { p: paymentId, amount: 6000 })).requestRefund;
  const tooMuch = await support.run(REQUEST, { p: paymentId, amount: 4001 });
  expect(tooMuch.errors?.[0]).toMatchObject({
    message: 'The refund is more than remains refundable on this payment: 4000 cents (40.00 USD), counting requests still open',
    extensions: { code: 'REFUND_EXCEEDS_REMAINING' },
  });
  for (const amount of [0, -1]) {
    expect((await support.run(REQUEST, { p: paymentId, amount })).errors?.[0]).toMatchObject({ extensions: { code: 'REFUND_AMOUNT_INVALID' } });
  }
  await finance.ok(`mutation ($id: ID!) { rejectRefund(id: $id, reason: "not returned") { id } }`, { id: open.id });
  expect((await support.ok(REQUEST, { p: paymentId, amount: 10_000 })).requestRefund.amount).toBe(10_000);
});

test('concurrent requests that together exceed the payment: one is refused, whatever the timing', async () => {
  const { paymentId } = await paid(10_000);
  const answers = await Promise.all(Array.from({ length: 8 }, () => support.run(REQUEST, { p: paymentId, amount: 3000 })));
  const accepted = answers.filter((a) => !a.errors);
  expect(accepted).toHaveLength(3);
  expect(answers.filter((a) => a.errors?.[0]?.extensions?.code === 'REFUND_EXCEEDS_REMAINING')).toHaveLength(5);
  const held = await service.em().find(Refund, { payment: paymentId });
  expect(held.reduce((sum, r) => sum + r.amount, 0)).toBe(9000);
});

test('after a partial refund carried out, only what remains may be asked', async () => {
  const { paymentId } = await paid(5000);
  await refunded(paymentId, 1000);
  const again = await support.run(REQUEST, { p: paymentId, amount: 4001 });
  expect(again.errors?.[0]?.extensions?.code).toBe('REFUND_EXCEEDS_REMAINING');
  expect(await ourViolations()).toEqual([]);
});

test("check-ledger finds nothing wrong with this file's payments and sellers", async () => {
  expect(ours.size).toBeGreaterThan(3);
  expect(await ourViolations()).toEqual([]);
});
