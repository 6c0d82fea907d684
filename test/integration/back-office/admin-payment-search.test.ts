import { AdminRole } from '../../../src/modules/admins/admin-role';
import { adminClient, adminTeam, completedPayment, eventually, graphql } from '../../support/admin-client';
import { checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

// Background pollers slowed down, so the SQL counted below is the request's own.
const service = useTestService({ WEBHOOK_POLL_INTERVAL_MS: '60000', REFUND_SWEEP_INTERVAL_MS: '3600000', RECONCILE_INTERVAL_MS: '3600000', WEBHOOK_WORKERS_IN_SERVICE: '0' });
let admin: Awaited<ReturnType<typeof adminClient>>;

beforeAll(async () => {
  admin = await adminClient(service);
});

const SEARCH = `query ($filter: PaymentSearchInput, $page: Int, $limit: Int) {
  searchPayments(filter: $filter, page: $page, limit: $limit) { items { id status customerEmail shop { id } } pagination { page limit total pages } }
}`;

describe('payment search for support', () => {
  test('by id, shop, status, customer e-mail (any case) and creation date, newest first, paginated', async () => {
    const from = new Date(Date.now() - 1000).toISOString();
    const shop = await service.createShop();
    const seller = sellerClient(service.url, shop.apiKey);
    const ids: string[] = [];
    for (const email of ['ann@example.com', 'bob@example.com', 'Ann@Example.com']) {
      ids.push((await seller.create({ ...VALID_PAYMENT, customer_email: email })).body.data.id);
    }
    await checkoutClient(service.url).pay(ids[1], '4242424242424242');

    const byShop = (await admin.ok(SEARCH, { filter: { shopId: shop.shop.id } })).searchPayments;
    expect(byShop.items.map((p: { id: string }) => p.id)).toEqual([...ids].reverse());
    expect(byShop.pagination).toEqual({ page: 1, limit: 10, total: 3, pages: 1 });

    const byId = (await admin.ok(SEARCH, { filter: { id: ids[0] } })).searchPayments.items;
    expect(byId).toEqual([{ id: ids[0], status: 'PENDING', customerEmail: 'ann@example.com', shop: { id: shop.shop.id } }]);

    const byEmail = (await admin.ok(SEARCH, { filter: { customerEmail: 'ANN@example.COM', shopId: shop.shop.id } })).searchPayments.items;
    expect(byEmail.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[0]]);

    const byStatus = (await admin.ok(SEARCH, { filter: { shopId: shop.shop.id, status: 'COMPLETED' } })).searchPayments.items;
    expect(byStatus.map((p: { id: string }) => p.id)).toEqual([ids[1]]);

    const byDate = (await admin.ok(SEARCH, { filter: { shopId: shop.shop.id, createdFrom: from, createdTo: new Date(Date.now() + 60_000).toISOString() } })).searchPayments;
    expect(byDate.pagination.total).toBe(3);
    const before = (await admin.ok(SEARCH, { filter: { shopId: shop.shop.id, createdTo: from } })).searchPayments;
    expect(before.pagination.total).toBe(0);

    const page2 = (await admin.ok(SEARCH, { filter: { shopId: shop.shop.id }, page: 2, limit: 2 })).searchPayments;
    expect(page2).toMatchObject({ items: [{ id: ids[0] }], pagination: { page: 2, limit: 2, total: 3, pages: 2 } });
  });

  test.each([
    [{ filter: { createdFrom: '2026-01-02T00:00:00Z', createdTo: '2026-01-01T00:00:00Z' } }, 'createdFrom must be before createdTo'],
    [{ limit: 101 }, 'limit must be an integer from 1 to 100'],
    [{ page: 0 }, 'page must be a positive integer'],
  ])('%j -> %s', async (variables, message) => {
    expect((await admin.run(SEARCH, variables)).errors?.[0].message).toBe(message);
  });
});

const STORY = `query ($id: ID!) {
  payment(id: $id) {
    id status amount fee netAmount completedAt checkoutStage
    card { brand last4 expMonth expYear }
    threeDsOutcome failureCode
    shop { id seller { id email } }
    refunds { id status reason }
    ledgerEntries { account kind amount }
    webhookDeliveries { eventType status }
    auditEntries { action actor targetType reason }
  }
}`;

describe("a payment's full story", () => {
  test('card (brand, last four, expiry: never the number), 3-D Secure, refund, ledger, webhook deliveries and audit entries', async () => {
    const shop = await service.createShop({ webhookUrl: 'https://shop.example.test/hooks' });
    const id = (await sellerClient(service.url, shop.apiKey).create({ ...VALID_PAYMENT, amount: 2000 })).body.data.id;
    await checkoutClient(service.url).pay(id, '4000000032200000');
    const { support, finance } = await adminTeam(service);
    const refund = (await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "Damaged in transit") { id } }`, { p: id })).requestRefund.id;
    await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: refund });
    await eventually(async () => (await admin.ok(STORY, { id })).payment.status === 'REFUNDED');

    const { payment } = await admin.ok(STORY, { id });
    expect(payment).toMatchObject({
      status: 'REFUNDED',
      amount: 2000,
      fee: 300,
      netAmount: 1700,
      checkoutStage: 'FINISHED',
      card: { brand: 'visa', last4: '0000', expMonth: 12 },
      threeDsOutcome: 'frictionless',
      failureCode: null,
      shop: { id: shop.shop.id, seller: { id: shop.seller.id } },
      refunds: [{ id: refund, status: 'REFUNDED', reason: 'Damaged in transit' }],
      webhookDeliveries: [{ eventType: 'payment.completed' }],
    });
    expect(payment.completedAt).not.toBeNull();
    expect(payment.ledgerEntries).toEqual([
      { account: 'CUSTOMER_FUNDS', kind: 'payment', amount: -2000 },
      { account: 'SELLER_BALANCE', kind: 'payment', amount: 2000 },
      { account: 'SELLER_BALANCE', kind: 'fee', amount: -300 },
      { account: 'FEE_REVENUE', kind: 'fee', amount: 300 },
      { account: 'SELLER_BALANCE', kind: 'refund', amount: -2000 },
      { account: 'CUSTOMER_FUNDS', kind: 'refund', amount: 2000 },
    ]);
    expect(payment.auditEntries).toEqual([
      { action: 'refund.requested', actor: support.admin.email, targetType: 'refund', reason: 'Damaged in transit' },
      { action: 'refund.approved', actor: finance.admin.email, targetType: 'refund', reason: null },
    ]);
    expect(JSON.stringify(payment)).not.toContain('4000000032200000');
  });

  test('a declined payment shows why', async () => {
    const shop = await service.createShop();
    const id = (await sellerClient(service.url, shop.apiKey).create(VALID_PAYMENT)).body.data.id;
    await checkoutClient(service.url).pay(id, '4000000000009995');
    const { payment } = await admin.ok(STORY, { id });
    expect(payment).toMatchObject({ status: 'FAILED', failureCode: 'insufficient_funds', completedAt: null, ledgerEntries: [], refunds: [] });
  });

  test("the story's admin fields are refused to the seller that owns the payment", async () => {
    const { shop, paymentId } = await completedPayment(service);
    const res = await sellerClient(service.url, shop.apiKey).retrieve(paymentId);
    expect(res.status).toBe(200);
    const answer = await graphql(service.url, `Bearer ${shop.apiKey}`, `query ($id: ID!) { payment(id: $id) { id card { last4 } } }`, { id: paymentId });
    expect(answer.errors?.[0]).toMatchObject({ message: 'Access denied', path: ['payment', 'card'] });
  });
});

describe('the console walks relations with dataloaders: no N+1', () => {
  /** Counts the SQL statements the service runs while `work` runs (the ORM's query log). */
  async function countQueries(work: () => Promise<unknown>): Promise<string[]> {
    const logger = service.database.orm.config.getLogger();
    const original = logger.logQuery.bind(logger);
    const seen: string[] = [];
    logger.logQuery = (context) => {
      // The mail outbox's sweep runs in the background of the same service: not this request's.
      if (!/"mail_outbox"/.test(context.query ?? '')) seen.push(context.query ?? '');
    };
    try {
      await work();
    } finally {
      logger.logQuery = original;
    }
    return seen;
  }

  /** The fewest statements of three runs of a read: a background loop's statement can only add to one run. */
  async function fewestQueries(work: () => Promise<unknown>): Promise<string[]> {
    const runs = [await countQueries(work), await countQueries(work), await countQueries(work)];
    return runs.reduce((fewest, run) => (run.length < fewest.length ? run : fewest));
  }

  const LIST = `query ($filter: PaymentSearchInput, $limit: Int) {
    searchPayments(filter: $filter, limit: $limit) {
      items { id shop { id name seller { id email status } balance { available } } refunds { id } ledgerEntries { amount } }
      pagination { total }
    }
  }`;

  test('listing 100 payments with their shop, seller, balance, refunds and ledger runs as many queries as listing 5', async () => {
    const from = new Date(Date.now() - 1000).toISOString();
    for (let s = 0; s < 20; s++) {
      const shop = await service.createShop();
      const seller = sellerClient(service.url, shop.apiKey);
      await Promise.all(Array.from({ length: 5 }, () => seller.create(VALID_PAYMENT)));
    }
    const filter = { createdFrom: from };
    const small = await fewestQueries(() => admin.ok(LIST, { filter, limit: 5 }));
    let answer: any;
    const large = await fewestQueries(async () => (answer = await admin.ok(LIST, { filter, limit: 100 })));
    expect(answer.searchPayments.items).toHaveLength(100);
    expect(new Set(answer.searchPayments.items.map((p: { shop: { id: string } }) => p.shop.id)).size).toBeGreaterThanOrEqual(20);
    // admin token, count, page, shops, sellers, balance (ledger sums + withdrawal sums + refund holds), refunds, ledger entries
    expect(small.length).toBeGreaterThanOrEqual(8);
    expect(large.length).toBe(small.length);
    expect(large.length).toBeLessThanOrEqual(10);
  });

  test('the refund queue with payment -> shop -> seller and reviewers runs a constant number of queries', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await completedPayment(service, 1000)).paymentId);
    const support = await adminClient(service, AdminRole.SUPPORT);
    for (const p of ids) await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "batch") { id } }`, { p });
    // Newest first: this test's six refunds, each with its own payment, shop and seller (earlier suites of this
    // worker may have left refunds of other shapes further down the queue).
    const QUEUE = `query ($limit: Int) { refunds(status: REQUESTED, order: NEWEST_FIRST, limit: $limit) { items { id requestedBy { email } payment { id shop { name seller { email } } } } } }`;
    const one = await fewestQueries(() => admin.ok(QUEUE, { limit: 1 }));
    let answer: any;
    const many = await fewestQueries(async () => (answer = await admin.ok(QUEUE, { limit: ids.length })));
    expect(answer.refunds.items.map((r: { payment: { id: string } }) => r.payment.id).sort()).toEqual([...ids].sort());
    expect(one.length).toBeGreaterThanOrEqual(5);
    expect(many.length).toBe(one.length);
  });
});
