import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { BrowserContext, Download, Page } from 'playwright-core';
import { AdminRole } from '../../src/modules/admins/admin-role';
import { totpCode } from '../../src/modules/identity/totp';
import { Refund } from '../../src/modules/refunds/refund.entity';
import { Payment } from '../../src/modules/payments/payment.entity';
import { adminClient, eventually } from '../support/admin-client';
import { useAdyenStandIn } from '../support/adyen-stand-in';
import { axeViolations, useBrowser } from '../support/browser';
import { checkoutClient } from '../support/checkout-client';
import { STRONG_PASSWORD, newEmail } from '../support/dashboard-client';
import { sellerClient, VALID_PAYMENT } from '../support/seller-client';
import { useTestService } from '../support/test-service';

/**
 * The seller's money in the dashboard, walked in Chromium against the Adyen stand-in (docs/dashboard.md): payments,
 * a partial refund request and then the rest, a withdrawal (payout account first, tiles refreshed), the shop deleted
 * and created again with the old payments still there and refundable, a dispute charged back and reversed, a
 * month's statement and every export downloaded, parsed and compared with the database; axe-core on every new
 * screen at 320 px and 1280 px; the paper cuts (first visit, GET /, sign-up refusal under its field, recovery codes).
 */
jest.setTimeout(180_000);
const SHOTS = process.env.DASHBOARD_SCREENSHOTS;
const adyen = useAdyenStandIn();
const service = useTestService(() => ({ ...adyen.env(), RATE_LIMIT_PER_MINUTE: '10000', AUTH_FAILURES_PER_MINUTE: '10000', REFUND_SWEEP_INTERVAL_MS: '100' }), 'dashboard-money');
const browser = useBrowser();
beforeAll(() => {
  adyen.serviceUrl = service.url;
});

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => service.em().getConnection().execute(text, params);
const applyNotifications = () => service.services.acquirerNotifications!.inbox.drain();
const cents = (text: string) => {
  const match = /^(-?)(\d+)\.(\d\d)$/.exec(text);
  if (!match) throw new Error(`not dollars: ${text}`);
  return (match[1] ? -1 : 1) * (Number(match[2]) * 100 + Number(match[3]));
};

/** The re-authentication dialog (deleting or creating a shop, payout account): the password, then Confirm. */
async function confirmInDialog(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await dialog.getByLabel('Current password').fill(STRONG_PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.waitFor({ state: 'detached' });
}

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

interface Seller {
  context: BrowserContext;
  page: Page;
  email: string;
  apiKey: string;
  problems: string[];
  offSite: string[];
}

async function newContext(width = 1280) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const problems: string[] = [];
  const offSite: string[] = [];
  page.on('request', (r) => !r.url().startsWith(service.url) && !r.url().startsWith('data:') && offSite.push(r.url()));
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && !/status of 40\d/.test(m.text()) && problems.push(m.text()));
  return { context, page, problems, offSite };
}

async function signUp(shopName: string): Promise<Seller> {
  const { context, page, problems, offSite } = await newContext();
  const email = newEmail();
  await page.goto(`${service.url}/dashboard/signup`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByLabel('Shop name').fill(shopName);
  await page.getByRole('button', { name: 'Create account' }).click();
  const apiKey = await page.getByLabel('API key').inputValue();
  await page.getByRole('link', { name: 'I have stored them: continue' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  return { context, page, email, apiKey, problems, offSite };
}

async function nav(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}

async function settled(page: Page) {
  await page.locator('h1').first().waitFor();
  await page.getByText('Loading…').waitFor({ state: 'detached' });
}

/** A payment paid at the Adyen stand-in (the customer's part, done over the checkout API). */
async function paid(apiKey: string, amount: number, extra: Record<string, unknown> = {}) {
  const id = (await sellerClient(service.url, apiKey).create({ ...VALID_PAYMENT, amount, ...extra })).body.data.id as string;
  const answer = (await checkoutClient(service.url).pay(id, '4111111111111111')).body;
  expect([answer.errors, answer.data?.submitCard.status]).toEqual([undefined, 'COMPLETED']);
  return id;
}

/** Finance approves the seller's open request; Adyen refunds it and says so by notification. */
async function refundCarriedOut(paymentId: string) {
  const finance = await adminClient(service, AdminRole.FINANCE);
  const queue = await finance.ok('query ($p: ID!) { refunds(status: REQUESTED, paymentId: $p) { items { id } } }', { p: paymentId });
  const refundId = queue.refunds.items[0].id as string;
  await finance.ok('mutation ($id: ID!) { approveRefund(id: $id) { id } }', { id: refundId });
  const refundOf = () => service.em().fork().findOneOrFail(Refund, { id: refundId });
  await eventually(async () => (await refundOf()).processorReference, 30_000, 'Adyen to receive the refund');
  const refund = await refundOf();
  const payment = await service.em().fork().findOneOrFail(Payment, { id: paymentId });
  await adyen.notify({ eventCode: 'REFUND', pspReference: refund.processorReference!, originalReference: payment.processorReference!, merchantReference: refund.id, amount: { currency: 'USD', value: refund.amount }, success: true });
  await applyNotifications();
  await eventually(async () => (await refundOf()).status === 'refunded', 30_000, 'the refund to be booked');
}

/** Clicks a download link; the file's text. */
async function downloaded(page: Page, name: string | RegExp): Promise<{ text: string; download: Download }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).first().click()]);
  const file = await download.path();
  return { text: fs.readFileSync(file!, 'utf8'), download };
}

async function axeAt(page: Page, name: string, widths = [320, 1280]) {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    expect([name, width, await axeViolations(page)]).toEqual([name, width, []]);
    expect([name, width, await page.evaluate(() => document.documentElement.scrollWidth)]).toEqual([name, width, width]);
    await shoot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a seller walks the money screens: partial refund then the rest, withdrawal, a new shop with the old payments still refundable, a dispute, statements and exports checked against the database', async () => {
  const seller = await signUp('Lighthouse Books');
  const { page } = seller;
  const [{ id: sellerId }] = await sql<{ id: string }>('select "id" from "sellers" where "email" = ?', [seller.email]);
  await shoot(page, 'overview-empty');

  const big = await paid(seller.apiKey, 10_000, { customer_email: 'ann.lee@example.com', customer_name: 'Ann Lee', metadata: { order_id: 'ORD-1001' } });
  const small = await paid(seller.apiKey, 4_000, { customer_email: 'bob@example.org' });
  const kept = await paid(seller.apiKey, 6_000, { customer_email: 'carol@example.net' });
  const disputed = await paid(seller.apiKey, 3_000, { customer_email: 'dan@example.com' });

  // Overview: tiles, the chart (inline SVG) with its table, the latest payments; totals and list agree.
  await page.reload();
  await settled(page);
  await page.getByRole('img', { name: /Gross volume, last 30 days/ }).waitFor();
  await page.getByText('Show the numbers as a table').click();
  const todayRow = page.getByRole('region', { name: /day by day/ }).getByRole('row').last();
  expect(await todayRow.textContent()).toContain('$230.00');
  expect(await todayRow.textContent()).toMatch(/4$/);
  await axeAt(page, 'overview');
  await page.getByLabel('Chart range').selectOption('7');
  await page.getByRole('button', { name: 'Show' }).click();
  await page.getByRole('img', { name: /last 7 days/ }).waitFor();
  expect(new URL(page.url()).searchParams.get('days')).toBe('7');

  // Search by a metadata value and by part of a name; the metadata on the payment's page.
  await nav(page, 'Payments');
  await page.getByLabel('Search').fill('ord-1001');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText('1 payment', { exact: true }).waitFor();
  await page.getByLabel('Search').fill('ann l');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByRole('link', { name: big }).click();
  await page.getByRole('heading', { name: 'Payment $100.00', level: 1 }).waitFor();
  await page.getByRole('region', { name: 'Metadata' }).or(page.locator('section', { has: page.getByRole('heading', { name: 'Metadata' }) })).getByText('ORD-1001').waitFor();
  // The story's lines carry their times, each with its time zone.
  for (const line of await page.locator('ol.story li').allTextContents()) expect(line).toMatch(/^\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M (?:[A-Z]{2,5}|GMT[+-][\d:]+) — /);

  // A partial refund: the amount in dollars (default: all that remains), then what remains.
  expect(await page.getByLabel('Amount (USD)').inputValue()).toBe('100.00');
  await page.getByText('Refundable: $100.00 of $100.00').waitFor();
  await page.getByLabel('Amount (USD)').fill('100.01');
  await page.getByLabel('Reason').fill('One book came back');
  await page.getByRole('button', { name: 'Request refund' }).click();
  await page.getByRole('alert').getByText('The refund is more than remains refundable on this payment: $100.00, counting requests still open').waitFor();
  await page.getByLabel('Amount (USD)').fill('25');
  await page.getByRole('button', { name: 'Request refund' }).click();
  await page.getByText('Refund request sent for $25.00 (requested)').waitFor();
  await page.getByText('Refundable: $75.00 of $100.00').waitFor();
  expect(await page.getByLabel('Amount (USD)').inputValue()).toBe('75.00');
  await axeAt(page, 'payment-partial-refund');
  await refundCarriedOut(big);
  await page.reload();
  await settled(page);
  expect(await page.locator('dl.details').first().textContent()).toMatch(/Amount\$100\.00Fee\$15\.00Net\$60\.00Refunded\$25\.00 went back to the card/);
  // The rest: the default amount is what remains.
  await page.getByLabel('Reason').fill('The rest came back too');
  await page.getByRole('button', { name: 'Request refund' }).click();
  await page.getByText('Refund request sent for $75.00 (requested)').waitFor();
  await page.getByText('Refund requests already cover the whole amount.').waitFor();
  await refundCarriedOut(big);
  await page.reload();
  await page.getByText('This payment is fully refunded.').waitFor();

  // Withdrawals: the verification notice with its button; no request before a payout account; tiles refresh.
  await nav(page, 'Withdrawals');
  await page.getByRole('button', { name: 'Send the link again' }).waitFor();
  await sql('update "sellers" set "email_verified_at" = now() where "id" = ?', [sellerId]);
  await page.reload();
  await settled(page);
  expect(await page.getByRole('button', { name: 'Send the link again' }).count()).toBe(0);
  await page.getByText('Add the bank account your withdrawals are paid to (below) before requesting a withdrawal.').waitFor();
  expect(await page.getByLabel('Amount (USD)').count()).toBe(0);
  await page.getByLabel('Account holder').fill('Lighthouse Books Ltd');
  await page.getByLabel('Bank account number').fill('DE89 3704 0044 0532 0130 00');
  await page.getByRole('button', { name: 'Save payout account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await dialog.getByLabel('Current password').fill(STRONG_PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await page.getByText('Payout account saved: •••• 3000.').waitFor();
  await page.getByLabel('Amount (USD)').fill('5');
  await page.getByRole('button', { name: 'Request withdrawal' }).click();
  await page.getByRole('alert').getByText('Withdrawal amount must be at least $10.00').waitFor();
  const available = async () => page.locator('.figure', { hasText: 'Available balance' }).locator('dd').textContent();
  // Paid 230, fees 34.50, refunded 100: 95.50 available.
  expect(await available()).toBe('$95.50');
  await page.getByLabel('Amount (USD)').fill('20.50');
  await page.getByRole('button', { name: 'Request withdrawal' }).click();
  await page.getByText('Withdrawal of $20.50 requested. It is held from your available balance until our finance team pays it out.').waitFor();
  expect(await available()).toBe('$75.00');
  expect(await page.locator('.figure', { hasText: 'Pending withdrawals' }).locator('dd').textContent()).toBe('$20.50');
  await axeAt(page, 'withdrawals');
  const finance = await adminClient(service, AdminRole.FINANCE);
  const [{ id: withdrawalId }] = await sql<{ id: string }>('select "id" from "withdrawals" where "seller_id" = ?', [sellerId]);
  await finance.ok('mutation ($id: ID!) { approveWithdrawal(id: $id) { id } }', { id: withdrawalId });
  await finance.ok('mutation ($id: ID!) { markWithdrawalPaid(id: $id, reference: "TRX-42") { id } }', { id: withdrawalId });

  // A dispute: charged back, then reversed, through Adyen's notifications.
  const pspOf = async (id: string) => (await service.em().fork().findOneOrFail(Payment, { id })).processorReference!;
  const dispute = { reference: `DP${(await pspOf(disputed)).slice(2)}`, paymentId: disputed, paymentPspReference: await pspOf(disputed), amount: { currency: 'USD', value: 3000 }, reason: 'Merchandise/Services Not Received' };
  await adyen.notifyDispute('CHARGEBACK', dispute);
  await applyNotifications();
  await nav(page, 'Disputes');
  await page.getByRole('cell', { name: /Charged back/ }).waitFor();
  await page.getByRole('cell', { name: 'Chargeback -$30.00', exact: false }).waitFor();
  await adyen.notifyDispute('CHARGEBACK_REVERSED', dispute);
  await applyNotifications();
  await page.reload();
  await settled(page);
  const row = page.getByRole('row', { name: new RegExp(disputed) });
  expect(await row.textContent()).toMatch(/Reversed.*\$30\.00.*Merchandise\/Services Not Received.*Chargeback -\$30\.00.*Chargeback reversed \$30\.00/);
  await axeAt(page, 'disputes');

  // Delete the shop (the key is lost) and create a new one: the old payments stay, marked, and are refundable.
  await nav(page, 'Developers');
  await page.getByLabel('Type the shop name to confirm').fill('Lighthouse Books');
  await page.getByRole('button', { name: 'Delete shop' }).click();
  await confirmInDialog(page);
  await page.getByText('Shop deleted. Its API key no longer works.').waitFor();
  await page.getByLabel('Shop name').fill('Lighthouse Books Two');
  await page.getByRole('button', { name: 'Create a new shop' }).click();
  await confirmInDialog(page);
  const newKey = await page.getByLabel('API key').inputValue();
  await page.getByRole('link', { name: 'I have stored them: continue' }).click();
  const fresh = await paid(newKey, 2_500, { customer_email: 'erin@example.com' });
  await nav(page, 'Payments');
  for (const id of [fresh, big, small, kept, disputed]) await page.getByRole('link', { name: id }).waitFor();
  expect(await page.getByRole('row', { name: new RegExp(small) }).textContent()).toContain('Past shop');
  await axeAt(page, 'payments');
  await page.getByRole('link', { name: small }).click();
  await page.getByText('From your past shop “Lighthouse Books”.').waitFor();
  expect(await page.getByLabel('Checkout link').count()).toBe(0);
  await page.getByLabel('Reason').fill('Returned after the shop changed');
  await page.getByRole('button', { name: 'Request refund' }).click();
  await page.getByText('Refund request sent for $40.00 (requested)').waitFor();
  await axeAt(page, 'payment-past-shop');
  await nav(page, 'Overview');
  expect(await page.locator('.figure', { hasText: 'Gross' }).locator('dd').textContent()).toBe('$255.00');
  expect(await page.getByRole('region', { name: 'Latest payments' }).getByRole('row').count()).toBe(6);

  // Balance transactions, with the balance after each line; a filter by type.
  await nav(page, 'Balance');
  const lines = await sql<{ id: string; kind: string; amount: string; account: string }>(
    `select e.* from "ledger_entries" e left join "withdrawals" w on w."id" = e."withdrawal_id"
      where (e."seller_id" = ? and e."account" = 'seller_balance') or (e."account" = 'payouts' and w."seller_id" = ?) order by e."id" desc`,
    [sellerId, sellerId],
  );
  const screenRows = page.getByRole('region', { name: 'Balance transactions' }).getByRole('row');
  expect(await screenRows.count()).toBe(Math.min(25, lines.length) + 1);
  const [{ total }] = await sql<{ total: string }>(`select coalesce(sum("amount"), 0) as total from "ledger_entries" where "seller_id" = ? and "account" = 'seller_balance'`, [sellerId]);
  const dollarsOf = (c: number) => `${c < 0 ? '-' : ''}$${(Math.abs(c) / 100).toFixed(2)}`;
  // The newest line's balance is the available balance; each line below it is the balance before the one above.
  expect(await screenRows.nth(1).textContent()).toContain(dollarsOf(Number(total)));
  expect(await screenRows.nth(2).textContent()).toContain(dollarsOf(Number(total) - Number(lines[0].amount)));
  await axeAt(page, 'balance');
  await page.getByLabel('Type').selectOption('payout');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText('1 line', { exact: true }).waitFor();
  expect(await screenRows.nth(1).textContent()).toMatch(/Paid out to your bank\$20\.50 sent/);

  // Every export: downloaded from the page, parsed, equal to the database.
  const balanceCsv = parse((await downloaded(page, 'Download CSV')).text, { columns: true }) as Record<string, string>[];
  expect(balanceCsv.map((r) => [r.type, cents(r.paid_out)])).toEqual([['payout', 2050]]);
  await page.goto(`${service.url}/dashboard/balance`);
  await settled(page);
  const allLines = parse((await downloaded(page, 'Download CSV')).text, { columns: true }) as Record<string, string>[];
  expect(allLines.map((r) => r.id)).toEqual([...lines].reverse().map((e) => String(e.id)));
  let running = 0;
  for (const [i, e] of [...lines].reverse().entries()) {
    if (e.account === 'seller_balance') running += Number(e.amount);
    expect([allLines[i].type, cents(allLines[i].balance_after)]).toEqual([e.kind, running]);
  }

  await nav(page, 'Payments');
  await page.getByLabel('Status').selectOption('REFUNDED');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText('1 payment', { exact: true }).waitFor();
  const paymentsCsv = parse((await downloaded(page, 'Download CSV')).text, { columns: true }) as Record<string, string>[];
  expect(paymentsCsv.map((r) => [r.id, r.status, r.amount, r.refunded, r.net, r.past_shop])).toEqual([[big, 'refunded', '100.00', '100.00', '-15.00', 'yes']]);

  await nav(page, 'Withdrawals');
  const withdrawalsCsv = parse((await downloaded(page, 'Download CSV')).text, { columns: true }) as Record<string, string>[];
  expect(withdrawalsCsv.map((r) => [r.id, r.amount, r.status, r.payout_reference])).toEqual([[withdrawalId, '20.50', 'paid', 'TRX-42']]);

  // This month's statement: opening plus lines is closing; the CSV says the same; printable.
  const month = new Date().toISOString().slice(0, 7);
  await nav(page, 'Balance');
  await page.getByRole('link', { name: new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date()) }).first().click();
  await page.getByRole('heading', { name: /^Statement for / }).waitFor();
  const summary = await page.getByRole('region', { name: 'Summary of the month' }).textContent();
  expect(summary).toContain('Opening balance$0.00');
  expect(summary).toContain(`Closing balance${lines.length}$${(Number(total) / 100).toFixed(2)}`);
  await axeAt(page, 'statement');
  await page.emulateMedia({ media: 'print' });
  expect(await page.locator('#topbar').isVisible()).toBe(false);
  expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
  await shoot(page, 'statement-print');
  await page.emulateMedia({ media: 'screen' });
  const { text: statementText, download } = await downloaded(page, 'Download CSV');
  expect(download.suggestedFilename()).toBe(`statement-${month}.csv`);
  const statement = parse(statementText, { columns: true }) as Record<string, string>[];
  expect(statement[0]).toMatchObject({ type: 'opening_balance', balance_after: '0.00' });
  expect(statement[statement.length - 1]).toMatchObject({ type: 'closing_balance', balance_after: (Number(total) / 100).toFixed(2) });
  expect(statement.slice(1, -1).reduce((sum, r) => sum + cents(r.amount), 0)).toBe(Number(total));

  expect(seller.offSite).toEqual([]);
  expect(seller.problems).toEqual([]);
  await seller.context.close();
});

test('paper cuts: a first visit is not "session ended", GET / lands on the dashboard, the sign-up refusal is under its field, the code step is not an error, 375 px shows the status, recovery codes can be copied and downloaded', async () => {
  const { context, page } = await newContext(1280);
  await page.goto(`${service.url}/`);
  await page.waitForURL(/\/dashboard\/login/);
  await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
  expect(new URL(page.url()).searchParams.get('ended')).toBeNull();
  expect(await page.getByText('Your session has ended').count()).toBe(0);

  // "Password is too common" under the password field, not the shop name.
  await page.goto(`${service.url}/dashboard/signup`);
  await page.getByLabel('Email', { exact: true }).fill(newEmail());
  await page.getByLabel('Password', { exact: true }).fill('password1234');
  await page.getByLabel('Shop name').fill('Common Shop');
  await page.getByRole('button', { name: 'Create account' }).click();
  const passwordField = page.locator('.field', { has: page.getByLabel('Password', { exact: true }) });
  await passwordField.getByRole('alert').getByText('Password is too common; choose another').waitFor();
  expect(await page.locator('.field', { has: page.getByLabel('Shop name') }).getByRole('alert').count()).toBe(0);
  expect(await page.getByLabel('Password', { exact: true }).getAttribute('aria-invalid')).toBe('true');
  await axeAt(page, 'signup-refused');
  await context.close();

  // Two-factor on, then the sign-in's code step: a neutral next step, not an error.
  const seller = await signUp('Narrow Shop');
  await paid(seller.apiKey, 1_500, { customer_email: 'a.very.long.address.for.testing@example.com' });
  await nav(seller.page, 'Account');
  await seller.page.locator('#two-factor-section').getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await seller.page.getByRole('button', { name: 'Turn on two-factor' }).click();
  const secret = (await seller.page.locator('code.mono').textContent())!.trim();
  await seller.page.getByLabel('Authentication code').fill(totpCode(secret));
  await seller.page.getByRole('button', { name: 'Confirm' }).click();
  await seller.page.getByRole('heading', { name: 'Recovery codes' }).waitFor();
  const codes = await seller.page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents();
  expect(codes).toHaveLength(10);
  const [download] = await Promise.all([seller.page.waitForEvent('download'), seller.page.getByRole('link', { name: 'Download codes' }).click()]);
  expect(download.suggestedFilename()).toBe('recovery-codes.txt');
  const file = fs.readFileSync((await download.path())!, 'utf8');
  for (const code of codes) expect(file).toContain(code);
  await seller.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });
  await seller.page.getByRole('button', { name: 'Copy codes' }).click();
  await seller.page.getByText('Copied').waitFor();
  expect(await seller.page.evaluate(() => navigator.clipboard.readText())).toBe(file);
  await axeAt(seller.page, 'recovery-codes');
  await seller.page.getByRole('button', { name: 'I have stored them' }).click();
  await seller.page.getByRole('button', { name: 'Sign out', exact: true }).first().click();
  await seller.page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
  await seller.page.getByLabel('Email').fill(seller.email);
  await seller.page.getByLabel('Password').fill(STRONG_PASSWORD);
  await seller.page.getByRole('button', { name: 'Sign in' }).click();
  await seller.page.getByLabel('Authentication code').waitFor();
  const step = seller.page.getByRole('status').filter({ hasText: 'Two-factor authentication is on' });
  await step.waitFor();
  expect(await seller.page.getByRole('alert').filter({ hasText: /./ }).count()).toBe(0);
  await axeAt(seller.page, 'sign-in-code-step');

  // 375 px: the payments table shows each payment's status without scrolling sideways.
  await seller.page.getByLabel('Authentication code').fill(totpCode(secret, Date.now() + 30_000));
  await seller.page.getByRole('button', { name: 'Sign in' }).click();
  await seller.page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  await seller.page.setViewportSize({ width: 375, height: 800 });
  await nav(seller.page, 'Payments');
  const status = seller.page.getByRole('region', { name: 'Payments' }).getByText('Completed');
  const box = (await status.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  await shoot(seller.page, 'payments-375');
  await seller.context.close();
});
