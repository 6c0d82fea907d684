import { AdminRole } from '../../../src/modules/admins/admin-role';
import { applyDisputeNotice } from '../../../src/modules/disputes/dispute.service';
import { sellerBalance } from '../../../src/modules/ledger/ledger.service';
import { adminClient, completedPayment, eventually, payableShop, type AdminClient } from '../../support/admin-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { checkoutClient } from '../../support/checkout-client';
import { useTestService } from '../../support/test-service';

/**
 * What the back office's screens ask the server besides the queues it always had (docs/admin.md): the Home
 * screen's work queue in one request, disputes across shops, the audit log by admin and date, sorted queues,
 * payment search by the start of an e-mail and by metadata (on indexes), and a seller's payment maximum.
 */
// The work queue counts every shop's failing deliveries and mails: with no relay in this service, rows that other
// suites left in the worker's database are not attempted, and so cannot start failing while a test counts.
const service = useTestService({ WEBHOOK_WORKERS_IN_SERVICE: '0', MAIL_WORKERS_IN_SERVICE: '0' });
let support: AdminClient;
let finance: AdminClient;
let owner: AdminClient;

beforeAll(async () => {
  support = await adminClient(service, AdminRole.SUPPORT);
  finance = await adminClient(service, AdminRole.FINANCE);
  owner = await adminClient(service, AdminRole.OWNER);
});

const WORK_QUEUE = `{ workQueue { refundsWaiting refundsNearDeadline refundsPastDeadline oldestRefundRequestedAt withdrawalsRequested withdrawalsApproved withdrawalsNotCovered
  disputesOpen disputesToContest mailsFailed mailsUnknown acquirerNotificationsFlagged failingWebhookShops failingWebhooks { shop { id name } failingSince failing } } }`;
const REFUND = `mutation ($p: ID!, $amount: SafeInt) { requestRefund(paymentId: $p, reason: "Returned", amount: $amount) { id } }`;

async function workQueue() {
  return (await support.ok(WORK_QUEUE)).workQueue;
}

describe('the work queue (Home)', () => {
  test('counts refund requests near (20 h) and past (24 h) the review promise, withdrawals to approve, to pay and not covered, disputes, failed mails and failing webhooks', async () => {
    const before = await workQueue();
    // Three refund requests: one fresh, one 21 hours old, one 25 hours old.
    const payments = await Promise.all([completedPayment(service, 3000), completedPayment(service, 3000), completedPayment(service, 3000)]);
    const ids: string[] = [];
    for (const { paymentId } of payments) ids.push((await support.ok(REFUND, { p: paymentId, amount: 500 })).requestRefund.id);
    await service.em().execute(`update "refunds" set "created_at" = now() - interval '21 hours' where "id" = ?`, [ids[1]]);
    await service.em().execute(`update "refunds" set "created_at" = now() - interval '25 hours' where "id" = ?`, [ids[2]]);

    // A withdrawal not covered any more (a refund booked after it), one covered, one approved.
    const { shop, paymentId } = await completedPayment(service, 10_000, await payableShop(service));
    await support.ok(`mutation ($s: ID!) { requestWithdrawal(shopId: $s, amount: 8000) { id } }`, { s: shop.shop.id });
    const refundId = (await support.ok(REFUND, { p: paymentId, amount: 2000 })).requestRefund.id;
    await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: refundId });
    await eventually(async () => (await sellerBalance(service.em(), shop.seller.id)) < 0n, 15_000, 'the refund to be booked');
    const covered = await completedPayment(service, 5000, await payableShop(service));
    const coveredId = (await support.ok(`mutation ($s: ID!) { requestWithdrawal(shopId: $s, amount: 1000) { id } }`, { s: covered.shop.shop.id })).requestWithdrawal.id;
    const approved = await completedPayment(service, 5000, await payableShop(service));
    const approvedId = (await support.ok(`mutation ($s: ID!) { requestWithdrawal(shopId: $s, amount: 1000) { id } }`, { s: approved.shop.shop.id })).requestWithdrawal.id;
    await finance.ok(`mutation ($id: ID!) { approveWithdrawal(id: $id) { id } }`, { id: approvedId });

    // A chargeback on a refunded payment (to contest), a failed mail and one of unknown delivery.
    const disputed = await completedPayment(service, 4000);
    const disputedRefund = (await support.ok(REFUND, { p: disputed.paymentId })).requestRefund.id;
    await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: disputedRefund });
    await eventually(async () => (await finance.ok(`query ($id: ID!) { refund(id: $id) { status } }`, { id: disputedRefund })).refund.status === 'REFUNDED', 15_000, 'refunded');
    expect(await applyDisputeNotice(service.em(), { step: 'chargeBack', paymentId: disputed.paymentId, reference: 'dsp-1', amount: 4000, currency: 'USD', reason: 'Fraud' })).toEqual({ effect: 'moved' });
    await service.em().execute(
      `insert into "mail_outbox" ("id", "kind", "subject_id", "recipient", "status", "last_error", "failed_at", "next_attempt_at") values
         ('mail_backoffice_failed', 'receipt', 'pay_backoffice_1', 'gone@example.com', 'failed', '550 no such mailbox', now(), now()),
         ('mail_backoffice_unknown', 'receipt', 'pay_backoffice_2', 'maybe@example.com', 'unknown', 'no answer after the message', null, now())`,
    );

    // A shop whose webhook deliveries keep failing: two real events still being retried, none delivered since.
    const failing = await completedPayment(service, 1000);
    for (const n of [1, 2]) {
      await service.em().execute(`insert into "webhook_events" ("id", "shop_id", "payment_id", "type", "sequence", "body") values (?, ?, ?, 'payment.completed', ?, '{}')`, [
        `evt_backoffice_${n}`,
        failing.shop.shop.id,
        failing.paymentId,
        100 + n,
      ]);
      await service.em().execute(
        `insert into "webhook_deliveries" ("id", "event_id", "shop_id", "payment_id", "status", "attempt_count", "next_attempt_at", "created_at")
         values (?, ?, ?, ?, 'pending', 3, now() + interval '1 day', now() - interval '2 hours')`,
        [`whd_backoffice_${n}`, `evt_backoffice_${n}`, failing.shop.shop.id, failing.paymentId],
      );
    }

    const after = await workQueue();
    expect(after.refundsWaiting - before.refundsWaiting).toBe(3);
    expect(after.refundsNearDeadline - before.refundsNearDeadline).toBe(1);
    expect(after.refundsPastDeadline - before.refundsPastDeadline).toBe(1);
    expect(Date.parse(after.oldestRefundRequestedAt)).toBeLessThan(Date.now() - 25 * 3600_000 + 60_000);
    expect(after.withdrawalsRequested - before.withdrawalsRequested).toBe(2);
    expect(after.withdrawalsApproved - before.withdrawalsApproved).toBe(1);
    expect(after.withdrawalsNotCovered - before.withdrawalsNotCovered).toBe(1);
    expect(after.disputesOpen - before.disputesOpen).toBe(1);
    expect(after.disputesToContest - before.disputesToContest).toBe(1);
    expect(after.mailsFailed - before.mailsFailed).toBe(1);
    expect(after.mailsUnknown - before.mailsUnknown).toBe(1);
    expect(after.failingWebhookShops - before.failingWebhookShops).toBe(1);
    expect(after.failingWebhooks).toContainEqual({ shop: { id: failing.shop.shop.id, name: 'Test Shop' }, failingSince: expect.any(String), failing: 2 });
    expect(coveredId).toBeDefined();

    // One delivery of that shop succeeds: it no longer keeps failing.
    await service.em().execute(
      `update "webhook_deliveries" set "status" = 'delivered', "delivered_at" = now(), "next_attempt_at" = null where "id" = 'whd_backoffice_2'`,
    );
    expect((await workQueue()).failingWebhooks.map((row: { shop: { id: string } }) => row.shop.id)).not.toContain(failing.shop.shop.id);
  }, 60_000);

  test('the Home operation runs in one request for every role', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const document = fs.readFileSync(path.join(__dirname, '../../../schema/operations/admin-console.graphql'), 'utf8');
    for (const admin of [support, finance, owner]) {
      const answer = await import('supertest').then(({ default: request }) =>
        request(service.url).post('/graphql').set('Authorization', `Bearer ${admin.token}`).send({ query: document, operationName: 'BackOfficeHome' }),
      );
      expect(answer.body.errors).toBeUndefined();
      expect(Object.keys(answer.body.data)).toEqual(['workQueue', 'refunds', 'mails', 'flaggedAcquirerNotifications', 'settlementProposals']);
    }
  });
});

describe('disputes across shops', () => {
  const DISPUTES = `query ($status: DisputeStatus, $open: Boolean, $order: ListOrder) { disputes(status: $status, open: $open, order: $order, limit: 100) {
    items { id status amount liability contestFlaggedAt evidenceRefundId payment { id shop { id } } } pagination { total } } }`;

  test("open ones, by status, by amount; one dispute; a seller's key cannot list them", async () => {
    const one = await completedPayment(service, 2000);
    const two = await completedPayment(service, 6000);
    await applyDisputeNotice(service.em(), { step: 'open', paymentId: one.paymentId, reference: 'dsp-open', amount: 2000, currency: 'USD', reason: 'Not received' });
    await applyDisputeNotice(service.em(), { step: 'chargeBack', paymentId: two.paymentId, reference: 'dsp-cb', amount: 6000, currency: 'USD', reason: 'Fraud' });
    await applyDisputeNotice(service.em(), { step: 'lose', paymentId: two.paymentId, reference: 'dsp-cb', amount: 6000, currency: 'USD', reason: null });

    const open = (await finance.ok(DISPUTES, { open: true })).disputes.items;
    expect(open.map((d: { payment: { id: string } }) => d.payment.id)).toContain(one.paymentId);
    expect(open.map((d: { payment: { id: string } }) => d.payment.id)).not.toContain(two.paymentId);
    const lost = (await finance.ok(DISPUTES, { status: 'LOST' })).disputes.items;
    const mine = lost.find((d: { payment: { id: string } }) => d.payment.id === two.paymentId);
    expect(mine).toMatchObject({ status: 'LOST', amount: 6000, liability: 'SELLER', contestFlaggedAt: null, evidenceRefundId: null, payment: { shop: { id: two.shop.shop.id } } });
    const largest = (await finance.ok(DISPUTES, { order: 'LARGEST_FIRST' })).disputes.items.map((d: { amount: number }) => d.amount);
    expect(largest).toEqual([...largest].sort((a, b) => b - a));

    const single = await support.ok(`query ($id: ID!) { dispute(id: $id) { id status payment { id } } }`, { id: mine.id });
    expect(single.dispute).toEqual({ id: mine.id, status: 'LOST', payment: { id: two.paymentId } });
    expect((await support.run(`{ dispute(id: "dp_nope") { id } }`)).errors?.[0]).toMatchObject({ message: 'Dispute not found', extensions: { code: 'DISPUTE_NOT_FOUND' } });
    const bySeller = await import('../../support/admin-client').then(({ graphql }) => graphql(service.url, `Bearer ${one.shop.apiKey}`, `{ disputes { pagination { total } } }`));
    expect(bySeller.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });
});

describe('the audit log', () => {
  const LOG = `query ($actor: String, $action: String, $from: DateTimeISO, $to: DateTimeISO, $target: String) {
    auditLog(actor: $actor, action: $action, createdFrom: $from, createdTo: $to, targetId: $target, limit: 100) { items { action actor adminId createdAt } pagination { total } } }`;

  test('by the admin e-mail (any case), by action and by date range; a range the wrong way round is refused in words', async () => {
    const { paymentId } = await completedPayment(service, 1500);
    const refundId = (await support.ok(REFUND, { p: paymentId })).requestRefund.id;
    await finance.ok(`mutation ($id: ID!) { rejectRefund(id: $id, reason: "Outside the return window") { id } }`, { id: refundId });
    const byActor = (await owner.ok(LOG, { actor: finance.admin.email.toUpperCase() })).auditLog.items;
    expect(byActor.length).toBeGreaterThan(0);
    expect(new Set(byActor.map((e: { adminId: string }) => e.adminId))).toEqual(new Set([finance.admin.id]));
    expect(byActor.map((e: { action: string }) => e.action)).toContain('refund.rejected');

    const now = Date.now();
    const inRange = (await owner.ok(LOG, { target: refundId, from: new Date(now - 60_000).toISOString(), to: new Date(now + 60_000).toISOString() })).auditLog.items;
    expect(inRange.map((e: { action: string }) => e.action).sort()).toEqual(['refund.rejected', 'refund.requested']);
    const before = (await owner.ok(LOG, { target: refundId, to: new Date(now - 3_600_000).toISOString() })).auditLog;
    expect(before.pagination.total).toBe(0);
    const wrong = await owner.run(LOG, { from: new Date(now).toISOString(), to: new Date(now - 1000).toISOString() });
    expect(wrong.errors?.[0]).toMatchObject({ message: 'createdFrom must be before createdTo', extensions: { code: 'DATE_RANGE_INVALID' } });
  });
});

describe('sorted queues', () => {
  test('refunds and withdrawals oldest first by default, newest first, largest first', async () => {
    const { paymentId } = await completedPayment(service, 9000);
    for (const amount of [1000, 3000, 2000]) await support.ok(REFUND, { p: paymentId, amount });
    const QUEUE = `query ($p: ID, $order: ListOrder) { refunds(paymentId: $p, status: REQUESTED, order: $order) { items { amount } } }`;
    const amounts = async (order: string | null) => (await finance.ok(QUEUE, { p: paymentId, order })).refunds.items.map((r: { amount: number }) => r.amount);
    expect(await amounts(null)).toEqual([1000, 3000, 2000]);
    expect(await amounts('NEWEST_FIRST')).toEqual([2000, 3000, 1000]);
    expect(await amounts('LARGEST_FIRST')).toEqual([3000, 2000, 1000]);
    expect(await amounts('SMALLEST_FIRST')).toEqual([1000, 2000, 3000]);

    const { shop } = await completedPayment(service, 10_000, await payableShop(service));
    for (const amount of [1000, 4000, 2000]) await support.ok(`mutation ($s: ID!, $a: SafeInt!) { requestWithdrawal(shopId: $s, amount: $a) { id } }`, { s: shop.shop.id, a: amount });
    const withdrawals = await finance.ok(`query ($s: ID) { withdrawals(shopId: $s, order: LARGEST_FIRST) { items { amount } } }`, { s: shop.shop.id });
    expect(withdrawals.withdrawals.items.map((w: { amount: number }) => w.amount)).toEqual([4000, 2000, 1000]);
  });
});

describe('sorted lists', () => {
  test('shops newest first by default, oldest first, by name either way, ties never repeated across pages', async () => {
    const tag = `Sorted ${Date.now()}`;
    for (const letter of ['B', 'A', 'C']) await service.createShop({ shopName: `${tag} ${letter}` });
    const SHOPS = `query ($s: String, $order: ShopOrder, $page: Int) { shops(search: $s, order: $order, limit: 2, page: $page) { items { name } pagination { total } } }`;
    const names = async (order: string | null) => {
      const pages = [1, 2].map((page) => owner.ok(SHOPS, { s: tag, order, page }));
      return (await Promise.all(pages)).flatMap((answer) => answer.shops.items.map((shop: { name: string }) => shop.name.slice(-1)));
    };
    expect(await names(null)).toEqual(['C', 'A', 'B']);
    expect(await names('OLDEST_FIRST')).toEqual(['B', 'A', 'C']);
    expect(await names('NAME_A_TO_Z')).toEqual(['A', 'B', 'C']);
    expect(await names('NAME_Z_TO_A')).toEqual(['C', 'B', 'A']);
  });

  test('the audit log newest first by default, oldest first on request', async () => {
    const { paymentId } = await completedPayment(service, 1500);
    const refundId = (await support.ok(REFUND, { p: paymentId })).requestRefund.id;
    await finance.ok(`mutation ($id: ID!) { rejectRefund(id: $id, reason: "Outside the return window") { id } }`, { id: refundId });
    const LOG = `query ($t: String, $order: TimeOrder) { auditLog(targetId: $t, order: $order) { items { action } } }`;
    const actions = async (order: string | null) => (await owner.ok(LOG, { t: refundId, order })).auditLog.items.map((e: { action: string }) => e.action);
    expect(await actions(null)).toEqual(['refund.rejected', 'refund.requested']);
    expect(await actions('OLDEST_FIRST')).toEqual(['refund.requested', 'refund.rejected']);
  });
});

describe('payment search', () => {
  async function paid(body: Record<string, unknown>) {
    const owner = await service.createShop();
    const created = await sellerClient(service.url, owner.apiKey).create({ ...VALID_PAYMENT, amount: 2500, ...body });
    const id = created.body.data.id as string;
    await checkoutClient(service.url).pay(id, '4242424242424242');
    return { id, shopId: owner.shop.id };
  }
  const FIND = `query ($filter: PaymentSearchInput) { searchPayments(filter: $filter, limit: 100) { items { id } pagination { total } } }`;
  const found = async (filter: Record<string, unknown>) => (await support.ok(FIND, { filter })).searchPayments.items.map((p: { id: string }) => p.id);

  test('by the start of the customer e-mail (any case) and by a metadata key and value, as text, number or boolean', async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const a = await paid({ customer_email: `Jane.${tag}@Example.com`, metadata: { order: 42, vip: true } });
    const b = await paid({ customer_email: `jane.${tag}x@example.org`, metadata: { order: '42', ref: tag } });
    const c = await paid({ customer_email: `john.${tag}@example.com`, metadata: { order: 43 } });
    expect((await found({ customerEmailPrefix: `JANE.${tag}` })).sort()).toEqual([a.id, b.id].sort());
    expect(await found({ customerEmailPrefix: `jane.${tag}@` })).toEqual([a.id]);
    expect(await found({ customerEmailPrefix: `john.${tag}` })).toEqual([c.id]);
    expect((await found({ metadataKey: 'ref', metadataValue: tag }))).toEqual([b.id]);
    const order42 = await found({ metadataKey: 'order', metadataValue: '42' });
    expect(order42).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(order42).not.toContain(c.id);
    expect(await found({ metadataKey: 'vip', metadataValue: 'true', shopId: a.shopId })).toEqual([a.id]);
    // A literal % or _ is not a wildcard.
    expect(await found({ customerEmailPrefix: `jan%.${tag}` })).toEqual([]);
    const short = await support.run(FIND, { filter: { customerEmailPrefix: 'ja' } });
    expect(short.errors?.[0].extensions?.code).toBe('EMAIL_PREFIX_INVALID');
  });

  test('both searches are answered from an index, not by reading every payment', async () => {
    const em = service.em();
    await em.execute('analyze "payments"');
    const plan = async (sql: string, params: unknown[]) =>
      (await em.transactional(async (tx) => {
        await tx.execute('set local enable_seqscan = off');
        return tx.execute<{ 'QUERY PLAN': string }[]>(`explain ${sql}`, params);
      })).map((row) => row['QUERY PLAN']).join('\n');
    // The prefix index serves any collation; under the C collation (the test cluster's) the plain one can too, and the
    // planner may take either.
    expect(await plan(`select p."id" from "payments" p where lower(p."customer_email") like ?`, ['jane%'])).toMatch(/payments_customer_email(_prefix)?_idx/);
    expect(await plan(`select p."id" from "payments" p where p."metadata"::jsonb @> ?::jsonb`, ['{"order":42}'])).toMatch(/payments_metadata_idx/);
  });
});

describe('sellers', () => {
  test("an admin reads the seller's payment maximum, which follows the account status", async () => {
    const shop = await service.createShop();
    const read = async () => (await support.ok(`query ($id: ID!) { seller(id: $id) { accountStatus paymentMaximum } }`, { id: shop.seller.id })).seller;
    // The test service runs with no maximum for NEW and RESTRICTED (test-service.ts sets them to 0: none).
    const first = await read();
    expect(first.accountStatus).toBe('NEW');
    await owner.ok(`mutation ($id: ID!) { setSellerAccountStatus(id: $id, accountStatus: VERIFIED, reason: "Documents checked") { id } }`, { id: shop.seller.id });
    expect(await read()).toEqual({ accountStatus: 'VERIFIED', paymentMaximum: null });
  });
});
