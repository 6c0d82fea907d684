import { applyDisputeNotice } from '../../../src/modules/disputes/dispute.service';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { adminClient, eventually, graphql } from '../../support/admin-client';
import { checkoutClient } from '../../support/checkout-client';
import { dashboard, signUpSeller, STRONG_PASSWORD, type DashboardSession } from '../../support/dashboard-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

/**
 * The dashboard's history across shops (docs/dashboard.md, "History across shops"): a seller who replaced a
 * lost key by deleting the shop and creating a new one still reads, searches and asks refunds for the old
 * shop's payments; totals and lists agree; partial refund requests, what remains, what went back; disputes
 * with their balance lines; the payout account before a withdrawal; GET / for browsers and for API clients.
 */
jest.setTimeout(60_000);
const service = useTestService({ SIMULATED_REFUND_DELAY_MS: '20', REFUND_SWEEP_INTERVAL_MS: '100', RATE_LIMIT_PER_MINUTE: '10000' }, 'seller-history');

const code = (res: { body: { errors?: { extensions?: { code?: string } }[] } }) => res.body.errors?.[0]?.extensions?.code ?? null;

async function ok(name: string, variables: object, session: DashboardSession) {
  const res = await dashboard(service.url, name, variables, session);
  if (res.body.errors) throw new Error(`${name}: ${JSON.stringify(res.body.errors)} ${JSON.stringify(service.logs.filter((l) => Number(l.level) >= 50).slice(-2))}`);
  return res.body.data;
}

async function pay(apiKey: string, amount: number, extra: Record<string, unknown> = {}, card = '4242424242424242') {
  const created = await sellerClient(service.url, apiKey).create({ ...VALID_PAYMENT, amount, ...extra });
  expect(created.status).toBe(200);
  const id = created.body.data.id as string;
  await checkoutClient(service.url).pay(id, card);
  return id;
}

describe('a seller who deleted the shop and created a new one', () => {
  let seller: Awaited<ReturnType<typeof signUpSeller>>;
  let oldPaid: string;
  let oldFailed: string;
  let oldPendingRefund: string;
  let newPaid: string;
  let newKey: string;

  beforeAll(async () => {
    seller = await signUpSeller(service.url);
    oldPaid = await pay(seller.apiKey, 10_000, { customer_email: 'Ann.Lee@Example.com', customer_name: 'Ann Lee', metadata: { order_id: 'ORD-7781', channel: 'web' } });
    oldFailed = await pay(seller.apiKey, 2_000, { customer_email: 'bob@example.org' }, '4000000000000002');
    oldPendingRefund = await pay(seller.apiKey, 3_000);
    // A refund request still open when the shop goes.
    await ok('RequestRefund', { paymentId: oldPendingRefund, reason: 'customer changed their mind', amount: 1000 }, seller.session);
    await ok('DeleteMyShop', { shopName: 'Dashboard Shop', currentPassword: seller.password }, seller.session);
    // Between the shops: no live shop, the history is still read.
    const between = await ok('Overview', {}, seller.session);
    expect(between.currentSeller.shop).toBeNull();
    expect(between.searchPayments.pagination.total).toBe(3);
    const created = await ok('CreateMyShop', { shopName: 'Dashboard Shop Two', currentPassword: seller.password }, seller.session);
    newKey = created.createMyShop.apiKey;
    newPaid = await pay(newKey, 5_000, { customer_email: 'carol@shop.test', metadata: { size: 'Größe "XL"', city: 'Zürich' } });
  });

  test('Overview and Payments list every payment of both shops, marked by shop, and the totals agree with the list', async () => {
    const overview = await ok('Overview', {}, seller.session);
    expect(overview.searchPayments.items.map((p: { id: string }) => p.id)).toEqual([newPaid, oldPendingRefund, oldFailed, oldPaid]);
    expect(overview.searchPayments.items.map((p: { fromPastShop: boolean }) => p.fromPastShop)).toEqual([false, true, true, true]);
    // Gross is the charged payments of the list: 10,000 + 3,000 + 5,000 (the failed one charged nothing).
    expect(overview.balance).toMatchObject({ gross: 18000, fees: 2700, refunds: 0, available: 15300 });
    // The volume chart counts the same charged payments (completed, or since refunded), whatever day they fell on.
    const volume = overview.balance.dailyVolume as Array<{ gross: number; count: number }>;
    expect(volume.reduce((sum, day) => ({ gross: sum.gross + day.gross, count: sum.count + day.count }), { gross: 0, count: 0 })).toEqual({ gross: 18000, count: 3 });
    const list = await ok('Payments', { filter: {} }, seller.session);
    expect(list.searchPayments.pagination.total).toBe(4);
  });

  test("the old shop's payment page reads (not 'Payment not found'), with its metadata, and its open refund request is still there", async () => {
    const detail = (await ok('PaymentDetail', { id: oldPendingRefund }, seller.session)).payment;
    expect(detail).toMatchObject({ fromPastShop: true, status: 'COMPLETED', refundableAmount: 2000, refundedAmount: 0, shop: { name: 'Dashboard Shop' } });
    expect(detail.refunds).toEqual([expect.objectContaining({ amount: 1000, status: 'REQUESTED', reason: 'customer changed their mind' })]);
    const withMetadata = (await ok('PaymentDetail', { id: oldPaid }, seller.session)).payment;
    expect(withMetadata.metadata).toEqual({ order_id: 'ORD-7781', channel: 'web' });
  });

  test("the old shop's payment is still refundable: in part, then the rest, each refused amount in the catalogue's words", async () => {
    const tooMuch = await dashboard(service.url, 'RequestRefund', { paymentId: oldPaid, reason: 'too much', amount: 10_001 }, seller.session);
    expect(code(tooMuch)).toBe('REFUND_EXCEEDS_REMAINING');
    expect(tooMuch.body.errors[0].message).toContain('10000 cents (100.00 USD)');
    const part = await ok('RequestRefund', { paymentId: oldPaid, reason: 'one book came back', amount: 2_500 }, seller.session);
    expect(part.requestRefund).toMatchObject({ amount: 2500, status: 'REQUESTED' });
    expect((await ok('PaymentDetail', { id: oldPaid }, seller.session)).payment.refundableAmount).toBe(7500);
    const rest = await ok('RequestRefund', { paymentId: oldPaid, reason: 'the rest came back' }, seller.session);
    expect(rest.requestRefund.amount).toBe(7500);
    expect(code(await dashboard(service.url, 'RequestRefund', { paymentId: oldPaid, reason: 'again' }, seller.session))).toBe('REFUND_EXCEEDS_REMAINING');
    // Finance carries the first out: what went back and the resulting net show on the page and in the list.
    const finance = await adminClient(service, AdminRole.FINANCE);
    await finance.ok('mutation ($id: ID!) { approveRefund(id: $id) { id } }', { id: part.requestRefund.id });
    await eventually(async () => (await ok('PaymentDetail', { id: oldPaid }, seller.session)).payment.refundedAmount === 2500, 10_000, 'the refund');
    const row = (await ok('Payments', { filter: { id: oldPaid } }, seller.session)).searchPayments.items[0];
    expect(row).toMatchObject({ amount: 10_000, fee: 1500, netAmount: 8500, refundedAmount: 2500, status: 'COMPLETED' });
  });

  test("another seller reaches none of it: not the old shop's payment, nor a refund of it, nor its search", async () => {
    const other = await signUpSeller(service.url);
    expect(code(await dashboard(service.url, 'PaymentDetail', { id: oldPaid }, other.session))).toBe('PAYMENT_NOT_FOUND');
    expect(code(await dashboard(service.url, 'RequestRefund', { paymentId: oldPaid, reason: 'mine?' }, other.session))).toBe('PAYMENT_NOT_FOUND');
    expect((await ok('Payments', { filter: { text: 'ORD-7781' } }, other.session)).searchPayments.pagination.total).toBe(0);
    expect((await ok('Payments', { filter: { shopId: seller.shopId } }, other.session).catch((e: Error) => e.message))).toContain('SHOP_NOT_FOUND');
  });

  test('search finds by a metadata value, part of an e-mail address or a name (any case), and the payment id', async () => {
    const found = async (text: string) => (await ok('Payments', { filter: { text } }, seller.session)).searchPayments.items.map((p: { id: string }) => p.id);
    expect(await found('ord-7781')).toEqual([oldPaid]);
    expect(await found('lee@exa')).toEqual([oldPaid]);
    expect(await found('ann l')).toEqual([oldPaid]);
    expect(await found('example.org')).toEqual([oldFailed]);
    expect(await found(newPaid)).toEqual([newPaid]);
    expect(await found('web')).toEqual([oldPaid]);
    expect(await found('we')).toEqual([]);
    // % and _ are matched as themselves, not as patterns.
    expect(await found('%')).toEqual([]);
    expect(await found('_')).toEqual([]);
    expect(await found('carol')).toEqual([newPaid]);
    // Values JSON escapes (a quote) and letters beyond ASCII are whole values too.
    expect(await found('größe "xl"')).toEqual([newPaid]);
    expect(await found('Zürich')).toEqual([newPaid]);
    expect(await found('Zür')).toEqual([]);
    expect((await ok('Payments', { filter: { text: 'example', status: 'FAILED' } }, seller.session)).searchPayments.items.map((p: { id: string }) => p.id)).toEqual([oldFailed]);
  });

  test('a failed payment shows neither fee nor net as charged: refundable 0, nothing refunded', async () => {
    const failed = (await ok('PaymentDetail', { id: oldFailed }, seller.session)).payment;
    expect(failed).toMatchObject({ status: 'FAILED', refundableAmount: 0, refundedAmount: 0 });
  });
});

describe('disputes: the seller reads each one, its state, and what it did to the balance', () => {
  test('a chargeback then its reversal: two journal lines on the balance, the dispute REVERSED', async () => {
    const seller = await signUpSeller(service.url);
    const id = await pay(seller.apiKey, 4_000);
    const notice = { paymentId: id, reference: `DP-${id}`, amount: 4_000, currency: 'USD', reason: 'Fraudulent Processing of Transactions' };
    expect(await applyDisputeNotice(service.em().fork(), { step: 'chargeBack', ...notice })).toEqual({ effect: 'moved' });
    let disputes = (await ok('Disputes', {}, seller.session)).currentSeller.disputes;
    expect(disputes.items).toEqual([expect.objectContaining({
      dispute: expect.objectContaining({ status: 'CHARGED_BACK', amount: 4000, reason: 'Fraudulent Processing of Transactions', liability: 'SELLER', sellerShare: 4000 }),
      payment: expect.objectContaining({ id, amount: 4000 }),
      balanceEntries: [expect.objectContaining({ kind: 'chargeback', amount: -4000 })],
    })]);
    expect(await applyDisputeNotice(service.em().fork(), { step: 'reverse', ...notice })).toEqual({ effect: 'moved' });
    disputes = (await ok('Disputes', {}, seller.session)).currentSeller.disputes;
    expect(disputes.items[0].dispute.status).toBe('REVERSED');
    expect(disputes.items[0].balanceEntries.map((e: { kind: string; amount: number }) => [e.kind, e.amount])).toEqual([['chargeback', -4000], ['chargeback_reversed', 4000]]);
    // The payment page shows the dispute too; the balance transactions list both lines.
    expect((await ok('PaymentDetail', { id }, seller.session)).payment.dispute.status).toBe('REVERSED');
    const lines = (await ok('BalanceTransactions', {}, seller.session)).balance.transactions.items;
    expect(lines.map((l: { kind: string; amount: number; runningBalance: string }) => [l.kind, l.amount, l.runningBalance])).toEqual([
      ['chargeback_reversed', 4000, 3400], ['chargeback', -4000, -600], ['fee', -600, 3400], ['payment', 4000, 4000],
    ]);
    expect((await ok('Disputes', {}, (await signUpSeller(service.url)).session)).currentSeller.disputes.items).toEqual([]);
  });
});

describe('withdrawals need a payout account, whatever the credential', () => {
  test('refused before one is saved (after the e-mail and balance rules), held after', async () => {
    const seller = await signUpSeller(service.url);
    await pay(seller.apiKey, 5_000);
    await service.em().getConnection().execute('update "sellers" set "email_verified_at" = now() where "id" = ?', [seller.sellerId]);
    expect(code(await dashboard(service.url, 'RequestWithdrawal', { amount: 1_000_000 }, seller.session))).toBe('WITHDRAWAL_EXCEEDS_BALANCE');
    const refused = await dashboard(service.url, 'RequestWithdrawal', { amount: 1_000 }, seller.session);
    expect(code(refused)).toBe('PAYOUT_ACCOUNT_REQUIRED');
    expect(await service.em().getConnection().execute('select count(*)::int as n from "withdrawals" where "seller_id" = ?', [seller.sellerId])).toEqual([{ n: 0 }]);
    await ok('SetPayoutAccount', { holder: 'Harbour Books Ltd', accountNumber: 'DE89 3704 0044 0532 0130 00', currentPassword: STRONG_PASSWORD }, seller.session);
    expect((await ok('RequestWithdrawal', { amount: 1_000 }, seller.session)).requestWithdrawal.status).toBe('REQUESTED');
    const screen = await ok('Withdrawals', {}, seller.session);
    expect(screen.balance.available).toBe(3250);
  });

  test('the API key and an admin acting for the shop get the same refusal: a leaked key cannot hold the balance with nowhere to pay it', async () => {
    const seller = await signUpSeller(service.url);
    await pay(seller.apiKey, 5_000);
    await service.em().getConnection().execute('update "sellers" set "email_verified_at" = now() where "id" = ?', [seller.sellerId]);
    const byKey = () => graphql(service.url, `Bearer ${seller.apiKey}`, 'mutation { requestWithdrawal(amount: 1000) { id status } }');
    const support = await adminClient(service, AdminRole.SUPPORT);
    const byAdmin = () => support.run('mutation($s: ID!) { requestWithdrawal(amount: 1000, shopId: $s) { id status } }', { s: seller.shopId });
    const dashboardRefusal = (await dashboard(service.url, 'RequestWithdrawal', { amount: 1_000 }, seller.session)).body.errors[0];
    for (const answer of [await byKey(), await byAdmin()]) {
      expect(answer.data).toBeNull();
      expect(answer.errors?.[0]).toMatchObject({ message: dashboardRefusal.message, extensions: { code: 'PAYOUT_ACCOUNT_REQUIRED', status: 409 } });
    }
    expect(await service.em().getConnection().execute('select count(*)::int as n from "withdrawals" where "seller_id" = ?', [seller.sellerId])).toEqual([{ n: 0 }]);
    expect((await ok('Withdrawals', {}, seller.session)).balance.available).toBe(4250);
    await ok('SetPayoutAccount', { holder: 'Harbour Books Ltd', accountNumber: 'DE89 3704 0044 0532 0130 00', currentPassword: STRONG_PASSWORD }, seller.session);
    expect((await byKey()).data.requestWithdrawal.status).toBe('REQUESTED');
    expect((await byAdmin()).data.requestWithdrawal.status).toBe('REQUESTED');
  });
});

describe('GET /', () => {
  test('a browser is sent to the dashboard; an API client gets the 404 envelope as before', async () => {
    const { default: request } = await import('supertest');
    const browser = await request(service.url).get('/').set('Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8');
    expect(browser.status).toBe(303);
    expect(browser.headers.location).toBe('/dashboard');
    for (const accept of [undefined, '*/*', 'application/json']) {
      let req = request(service.url).get('/');
      if (accept) req = req.set('Accept', accept);
      const api = await req;
      expect([accept, api.status, api.body]).toEqual([accept, 404, { success: false, error: 'Route not found' }]);
    }
  });
});
