import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { totpCode } from '../../src/modules/identity/totp';
import { beginTwoFactor, confirmTwoFactor } from '../../src/modules/identity/credentials';
import { AdminRole } from '../../src/modules/admins/admin-role';
import { applyDisputeNotice } from '../../src/modules/disputes/dispute.service';
import { sellerBalance } from '../../src/modules/ledger/ledger.service';
import { setPayoutAccount } from '../../src/modules/withdrawals/payout-account';
import { adminClient, completedPayment, eventually, graphql, type AdminClient } from '../support/admin-client';
import { nextCode, setUpAdmin } from '../support/admin-session';
import { axeViolations, useBrowserService } from '../support/browser';
import { checkoutClient } from '../support/checkout-client';

/**
 * The back office at /admin (docs/admin.md), in Chromium, with real sign-ins (password and TOTP code) of a
 * support, two finance and an owner admin: who sees which button, four eyes, the withdrawal balance rule in
 * words, the whole payout account for finance only, an owner's seller actions, and the audit log naming each
 * admin. Every screen is checked with axe (WCAG 2.2 AA) at 1280 and 768 px wide; with BACK_OFFICE_SCREENSHOTS
 * set to a directory, each is saved there to be looked at.
 */
// Its own database: Home counts and the queues' orderings read every row.
const web = useBrowserService({}, { customerPage: false, ownDatabase: true });
const SCREENSHOTS = process.env.BACK_OFFICE_SCREENSHOTS;
const BUILT = path.join(__dirname, '../../dist/admin-console');
const ACCOUNT_NUMBER = 'DE89370400440532013000';

type Role = 'support' | 'financeA' | 'financeB' | 'owner';
interface SignedInAdmin {
  email: string;
  context: BrowserContext;
  page: Page;
  problems: string[];
  offSite: string[];
  requested: string[];
}
const admins = {} as Record<Role, SignedInAdmin>;
let api: AdminClient;

/** Signs in at /admin as a person does: e-mail, password, the authenticator's code. */
async function signIn(role: AdminRole): Promise<SignedInAdmin> {
  const admin = await setUpAdmin(web.service, role);
  const context = await web.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  const offSite: string[] = [];
  const requested: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('request', (request) => {
    requested.push(request.url());
    if (!request.url().startsWith(web.service.url) && !request.url().startsWith('data:')) offSite.push(request.url());
  });
  await page.goto(`${web.service.url}/admin`);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByLabel('Authentication code').fill(nextCode(admin.secret));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText(`${admin.email} (${role})`).waitFor();
  await page.getByRole('heading', { name: 'What is waiting', level: 1 }).waitFor();
  return { email: admin.email, context, page, problems, offSite, requested };
}

const summary = (violations: Awaited<ReturnType<typeof axeViolations>>) => violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);

/** axe at 1280 and at 768 px, and a full-page screenshot at each width when asked for. */
async function check(page: Page, name: string) {
  for (const width of [1280, 768]) {
    await page.setViewportSize({ width, height: 900 });
    expect([name, width, summary(await axeViolations(page))]).toEqual([name, width, []]);
    // Nothing wider than the window: tables scroll inside themselves.
    expect([name, width, await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)]).toEqual([name, width, true]);
    if (SCREENSHOTS) {
      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function go(page: Page, section: string, heading: string | RegExp = section) {
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: section, exact: true }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

const dialog = (page: Page) => page.getByRole('dialog');

let shop: Awaited<ReturnType<typeof completedPayment>>['shop'];
let paymentId: string;

beforeAll(async () => {
  api = await adminClient(web.service, AdminRole.SUPPORT);
  // A shop with one paid payment of $100 (net $85), whose seller set a payout account and has two-factor on.
  ({ shop, paymentId } = await completedPayment(web.service, 10_000));
  await setPayoutAccount(web.service.em(), web.service.services.accounts.secrets, shop.seller.id, 'Ana Example', ACCOUNT_NUMBER);
  const { secret } = await beginTwoFactor(web.service.em(), web.service.services.accounts.secrets, 'seller', shop.seller.id);
  await confirmTwoFactor(web.service.em(), web.service.services.accounts.secrets, 'seller', shop.seller.id, totpCode(secret));
  admins.support = await signIn(AdminRole.SUPPORT);
  admins.financeA = await signIn(AdminRole.FINANCE);
  admins.financeB = await signIn(AdminRole.FINANCE);
  admins.owner = await signIn(AdminRole.OWNER);
}, 120_000);

afterAll(async () => {
  for (const admin of Object.values(admins)) await admin?.context.close();
});

test('the first load stays under 250 KB gzipped and carries no GraphiQL; the query console loads it when opened, with its presets', async () => {
  const firstLoad = JSON.parse(fs.readFileSync(path.join(BUILT, 'first-load.json'), 'utf8'));
  expect(firstLoad.gzipped).toBeLessThan(250 * 1024);
  const { page, requested } = admins.support;
  await check(page, 'home-support');
  // What the browser fetched so far, compressed as sent, is under the budget too, and none of it is GraphiQL's.
  const sizes = await page.evaluate(() => performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation')).map((e) => (e as PerformanceResourceTiming).transferSize));
  expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThan(250 * 1024);
  expect(requested.filter((url) => /graphiql/.test(url))).toEqual([]);

  await go(page, 'Query console');
  await page.getByRole('button', { name: 'Record a refund request' }).waitFor();
  expect(await page.getByRole('button', { name: 'Approve a refund' }).count()).toBe(0);
  await page.locator('.graphiql-container').waitFor();
  // Its script and its style sheet, fetched now.
  await eventually(async () => requested.filter((url) => /\/admin\/assets\/graphiql(-style)?\./.test(url)).length === 2, 30_000, 'GraphiQL and its style sheet');
  if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, 'query-console-1280.png') });
  await go(page, 'Home', 'What is waiting');
}, 120_000);

test('support records a partial refund request from the payment page, and sees no approve button and no payout account number', async () => {
  const { page } = admins.support;
  await go(page, 'Payments');
  await page.getByLabel('Payment ID').fill(paymentId);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.waitForURL(/id=pay_/);
  await page.getByRole('link', { name: paymentId }).waitFor();
  await check(page, 'payments-search');
  await page.getByRole('link', { name: paymentId }).click();
  await page.getByRole('heading', { name: `Payment ${paymentId}`, level: 1 }).waitFor();
  await check(page, 'payment-support');
  await page.getByText('Record a refund request').click();
  // Without a reason, or with an amount that is not money, the form says so in words.
  await page.getByRole('button', { name: 'Record refund request' }).click();
  await page.getByRole('alert').filter({ hasText: 'A reason is required' }).waitFor();
  await page.getByLabel('Reason').fill('Customer returned one of two items');
  await page.getByLabel('Amount in USD (optional)').fill('12,5x');
  await page.getByRole('button', { name: 'Record refund request' }).click();
  await page.getByRole('alert').filter({ hasText: 'Write the amount in dollars and cents' }).waitFor();
  await page.getByLabel('Amount in USD (optional)').fill('20.00');
  await page.getByRole('button', { name: 'Record refund request' }).click();
  await page.getByRole('heading', { name: /^Refund request ref_/, level: 1 }).waitFor();
  await page.getByText('$20.00 (partial, of $100.00)').waitFor();
  expect(await page.getByRole('button', { name: 'Approve refund' }).count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Reject request' }).count()).toBe(0);
  await page.getByText('Finance decides refund requests').waitFor();
  await check(page, 'refund-support');

  // The withdrawal queue: the account masked, no way to show the whole number, no approval.
  await api.ok(`mutation ($s: ID!) { requestWithdrawal(shopId: $s, amount: 1000) { id } }`, { s: shop.shop.id });
  await go(page, 'Withdrawals');
  await page.getByText('•••• 3000').first().waitFor();
  expect(await page.getByRole('button', { name: /^Show whole number/ }).count()).toBe(0);
  expect(await page.getByRole('button', { name: /^Approve: withdrawal/ }).count()).toBe(0);
  expect(await page.content()).not.toContain(ACCOUNT_NUMBER);
  await check(page, 'withdrawals-support');
}, 90_000);

test('finance A cannot approve the request they recorded (four eyes, shown in words); finance B approves it from the queue', async () => {
  const a = admins.financeA.page;
  await a.goto(`${web.service.url}/admin?view=payment&id=${paymentId}`);
  await a.getByRole('heading', { name: `Payment ${paymentId}`, level: 1 }).waitFor();
  await a.getByText('Record a refund request').click();
  await a.getByLabel('Amount in USD (optional)').fill('15');
  await a.getByLabel('Reason').fill('Late delivery, partial refund agreed');
  await a.getByRole('button', { name: 'Record refund request' }).click();
  await a.getByRole('heading', { name: /^Refund request ref_/, level: 1 }).waitFor();
  const refundId = (await a.getByRole('heading', { level: 1 }).textContent())!.replace('Refund request ', '');
  await a.getByText('You recorded this request: another finance admin must approve it.').waitFor();
  expect(await a.getByRole('button', { name: 'Approve refund' }).count()).toBe(0);
  await check(a, 'refund-own-request-finance');

  // Finance B: the queue, oldest first; sorted by amount through the address (a link that can be shared).
  const b = admins.financeB.page;
  await go(b, 'Refunds', 'Refund requests');
  await b.getByRole('button', { name: /^Amount/ }).click();
  await b.waitForURL(/order=LARGEST_FIRST/);
  const rows = b.getByRole('region', { name: /Refund requests/ }).getByRole('row');
  await rows.nth(1).getByText('$20.00').waitFor();
  await b.reload();
  await rows.nth(1).getByText('$20.00').waitFor();
  expect(await b.getByRole('columnheader', { name: /Amount/ }).getAttribute('aria-sort')).toBe('descending');
  await check(b, 'refund-queue-finance');
  await b.getByRole('row').filter({ hasText: admins.financeA.email }).getByRole('link', { name: `Open refund request ${refundId}` }).click();
  await b.getByRole('heading', { name: `Refund request ${refundId}`, level: 1 }).waitFor();
  await b.getByRole('heading', { name: "The payment's story" }).waitFor();
  await check(b, 'refund-finance');
  await b.getByRole('button', { name: 'Approve refund' }).click();
  await dialog(b).getByRole('heading', { name: 'Approve this refund?' }).waitFor();
  await check(b, 'refund-approve-dialog');
  // Escape closes it and nothing happens; the keyboard opens it again.
  await b.keyboard.press('Escape');
  await dialog(b).waitFor({ state: 'detached' });
  await b.getByRole('button', { name: 'Approve refund' }).focus();
  await b.keyboard.press('Enter');
  await dialog(b).getByLabel('Note for the audit log (optional)').fill('Agreed with the seller by phone');
  await dialog(b).getByRole('button', { name: 'Approve refund of $15.00' }).click();
  await b.getByRole('status').filter({ hasText: 'Refund approved' }).waitFor();
  await b.getByLabel('The request').getByText(new RegExp(`^${admins.financeB.email}, `)).waitFor();
  await eventually(async () => (await api.ok(`query ($id: ID!) { refund(id: $id) { status } }`, { id: refundId })).refund.status === 'REFUNDED', 30_000, 'the refund to be carried out');
}, 90_000);

test('a withdrawal is refused in words while the balance is negative, approved once covered; finance alone sees the whole payout account, each showing audited', async () => {
  // A new shop: $100 paid (85 available), $80 requested (held: 5 left), then a refund of $20: -15.
  const other = await completedPayment(web.service, 10_000);
  await setPayoutAccount(web.service.em(), web.service.services.accounts.secrets, other.shop.seller.id, 'Bo Trader', 'GB29NWBK60161331926819');
  const withdrawalId = (await api.ok(`mutation ($s: ID!) { requestWithdrawal(shopId: $s, amount: 8000) { id } }`, { s: other.shop.shop.id })).requestWithdrawal.id;
  const finance = await adminClient(web.service, AdminRole.FINANCE);
  const refundId = (await api.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "Damaged", amount: 2000) { id } }`, { p: other.paymentId })).requestRefund.id;
  await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: refundId });
  await eventually(async () => (await sellerBalance(web.service.em(), other.shop.seller.id)) === -1500n, 30_000, 'the balance to go negative');

  const b = admins.financeB.page;
  await b.goto(`${web.service.url}/admin?view=withdrawals&shopId=${other.shop.shop.id}`);
  await b.getByRole('heading', { name: 'Withdrawals', level: 1 }).waitFor();
  const row = b.getByRole('row').filter({ hasText: withdrawalId });
  await row.getByText('Not covered').waitFor();
  await row.getByText('−$15.00').waitFor();
  await check(b, 'withdrawals-finance');
  await row.getByRole('button', { name: `Approve: withdrawal ${withdrawalId}` }).click();
  await dialog(b).getByRole('button', { name: 'Approve $80.00' }).click();
  await dialog(b)
    .getByRole('alert')
    .filter({ hasText: "This withdrawal cannot be approved while the seller's available balance is negative (-1500 cents)" })
    .waitFor();
  await check(b, 'withdrawal-refused-dialog');
  await dialog(b).getByRole('button', { name: 'Cancel' }).click();

  // $20 more paid: +17, the balance is $2: covered.
  await completedPayment(web.service, 2000, other.shop);
  await b.reload();
  await row.getByText('$2.00').waitFor();
  expect(await row.getByText('Not covered').count()).toBe(0);
  await row.getByRole('button', { name: `Approve: withdrawal ${withdrawalId}` }).click();
  await dialog(b).getByRole('button', { name: 'Approve $80.00' }).click();
  await b.getByRole('status').filter({ hasText: 'approved: send the bank transfer' }).waitFor();

  // Approved, to pay: the whole number on demand (audited), then paid with the bank's reference.
  await b.getByLabel('Status').selectOption('APPROVED');
  await b.getByRole('button', { name: 'Apply filters' }).click();
  await b.waitForURL(/status=APPROVED/);
  await row.getByRole('button', { name: /^Show whole number/ }).click();
  await row.getByText('GB29NWBK60161331926819').waitFor();
  await row.getByRole('button', { name: `Mark paid: withdrawal ${withdrawalId}` }).click();
  await dialog(b).getByRole('button', { name: 'Mark paid' }).click();
  await dialog(b).getByRole('alert').filter({ hasText: 'Bank transfer reference is required.' }).waitFor();
  await dialog(b).getByLabel('Bank transfer reference').fill('TRF-2026-0042');
  await dialog(b).getByRole('button', { name: 'Mark paid' }).click();
  await b.getByRole('status').filter({ hasText: 'marked paid with reference TRF-2026-0042' }).waitFor();

  const log = await api.ok(`query ($t: String) { auditLog(targetId: $t) { items { action actor } } }`, { t: other.shop.seller.id });
  expect(log.auditLog.items).toContainEqual({ action: 'payout_account.read', actor: admins.financeB.email });
  const answer = await graphql(web.service.url, `Bearer ${api.token}`, `query ($id: ID!) { seller(id: $id) { payoutAccount { accountNumber } } }`, { id: other.shop.seller.id });
  expect(answer.errors?.[0].extensions?.code).toBe('FORBIDDEN_ROLE');
}, 120_000);

test("an owner suspends a seller and resets the seller's two-factor, each with a reason; support and finance get no such buttons", async () => {
  const { page } = admins.owner;
  await go(page, 'Sellers and shops');
  await page.getByLabel('Shop name or seller e-mail').fill(shop.seller.email);
  await page.getByLabel('Shop name or seller e-mail').press('Enter');
  await page.waitForURL(/search=/);
  // Sorted by name through the address, so the sorted list is a link a colleague can open.
  await page.getByRole('button', { name: 'Shop', exact: true }).click();
  await page.waitForURL(/order=NAME_A_TO_Z/);
  expect(await page.getByRole('columnheader', { name: 'Shop', exact: true }).getAttribute('aria-sort')).toBe('ascending');
  await page.getByRole('region', { name: 'Shops, by name, A to Z' }).waitFor();
  await check(page, 'shops-owner');
  await page.getByRole('link', { name: 'Test Shop' }).first().click();
  await page.getByRole('heading', { name: 'Test Shop', level: 1 }).waitFor();
  await check(page, 'shop-owner');

  await page.getByRole('button', { name: 'Suspend seller' }).click();
  await dialog(page).getByRole('button', { name: 'Suspend seller' }).click();
  await dialog(page).getByRole('alert').filter({ hasText: 'Reason (kept in the audit log) is required.' }).waitFor();
  await dialog(page).getByLabel('Reason (kept in the audit log)').fill('Chargeback ratio under review');
  await dialog(page).getByRole('button', { name: 'Suspend seller' }).click();
  await page.getByRole('status').filter({ hasText: 'Seller suspended.' }).waitFor();
  await page.getByRole('button', { name: 'Reactivate seller' }).waitFor();

  await page.getByRole('button', { name: 'Reset two-factor' }).click();
  await dialog(page).getByLabel('Reason (kept in the audit log)').fill('Lost phone; identity confirmed by a call back');
  await dialog(page).getByRole('button', { name: 'Reset two-factor' }).click();
  await page.getByRole('status').filter({ hasText: "Seller's two-factor reset" }).waitFor();
  await page.getByRole('button', { name: 'Reset two-factor' }).waitFor({ state: 'detached' });
  const seller = await api.ok(`query ($id: ID!) { seller(id: $id) { status twoFactorEnabled } }`, { id: shop.seller.id });
  expect(seller.seller).toEqual({ status: 'SUSPENDED', twoFactorEnabled: false });

  for (const role of ['support', 'financeA'] as const) {
    const other = admins[role].page;
    await other.goto(`${web.service.url}/admin?view=shop&id=${shop.shop.id}`);
    await other.getByRole('heading', { name: 'Test Shop', level: 1 }).waitFor();
    expect(await other.getByRole('group', { name: 'Owner actions' }).count()).toBe(0);
  }
}, 90_000);

test('the audit log shows each action with the admin who took it, filtered by admin, action, target and date through the address', async () => {
  const { page } = admins.owner;
  await go(page, 'Audit log');
  await page.getByLabel('Admin e-mail').fill(admins.financeB.email);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.waitForURL(/admin=/);
  const table = page.getByRole('region', { name: 'Audit log, newest first' });
  // The unfiltered rows stay on screen until the filtered answer replaces them.
  await eventually(async () => (await table.getByText(admins.financeA.email).count()) === 0, 30_000, 'the log filtered to finance B');
  for (const action of ['refund.approved', 'withdrawal.approved', 'payout_account.read', 'withdrawal.paid']) await table.getByRole('link', { name: `Only ${action} actions` }).first().waitFor();
  expect(await table.getByText(admins.financeA.email).count()).toBe(0);
  await check(page, 'audit-finance-b');
  // Oldest first through the address: the same entries the other way round.
  const actionsIn = (region: ReturnType<Page['getByRole']>) => region.getByRole('link', { name: /^Only .* actions$/ }).allTextContents();
  const newestFirst = await actionsIn(table);
  await page.getByRole('button', { name: 'When', exact: true }).click();
  await page.waitForURL(/order=OLDEST_FIRST/);
  const oldestFirst = page.getByRole('region', { name: 'Audit log, oldest first' });
  await oldestFirst.waitFor();
  expect(await page.getByRole('columnheader', { name: 'When', exact: true }).getAttribute('aria-sort')).toBe('ascending');
  // The region is renamed at once; its rows follow when the reordered page arrives.
  const expected = JSON.stringify([...newestFirst].reverse());
  await eventually(async () => JSON.stringify(await actionsIn(oldestFirst)) === expected, 30_000, 'the oldest-first rows');
  expect(newestFirst.length).toBeGreaterThan(3);

  const today = new Date().toISOString().slice(0, 10);
  await page.goto(`${web.service.url}/admin?view=audit&action=seller.suspended&from=${today}&to=${today}`);
  await table.getByText(admins.owner.email).first().waitFor();
  await table.getByText('Chargeback ratio under review').waitFor();
  await page.goto(`${web.service.url}/admin?view=audit&action=refund.requested&target=`);
  await table.getByText(admins.support.email).first().waitFor();
  await table.getByText(admins.financeA.email).first().waitFor();
  await page.goto(`${web.service.url}/admin?view=audit&action=seller.two_factor_reset`);
  await table.getByText('Lost phone; identity confirmed by a call back').waitFor();
  // A date range the wrong way round is refused in words.
  await page.goto(`${web.service.url}/admin?view=audit&from=${today}&to=2000-01-01`);
  await page.getByRole('alert').filter({ hasText: 'createdFrom must be before createdTo' }).waitFor();
}, 120_000);

test("finance settles a payment whose answer was lost by asking the acquirer from the payment's page, with a reason; support sees no such button", async () => {
  const lost = await shopWithLostAnswer();
  const { page } = admins.support;
  await page.goto(`${web.service.url}/admin?view=payment&id=${lost}`);
  await page.getByRole('heading', { name: `Payment ${lost}`, level: 1 }).waitFor();
  expect(await page.getByRole('button', { name: /^Ask the acquirer/ }).count()).toBe(0);

  const finance = admins.financeB.page;
  await finance.goto(`${web.service.url}/admin?view=payment&id=${lost}`);
  await finance.getByRole('heading', { name: 'Outcome unknown', level: 2 }).waitFor();
  await check(finance, 'payment-outcome-unknown');
  await finance.getByRole('button', { name: 'Ask the acquirer about this payment' }).click();
  await dialog(finance).getByLabel('Reason (kept in the audit log)').fill('The customer says the card was charged');
  await dialog(finance).getByRole('button', { name: 'Ask now' }).click();
  await finance.getByText('The acquirer answered Approved: Completed.').waitFor();
  // The page reloads the payment, settled now: the tools go, the answer stays on screen.
  await finance.getByRole('heading', { name: 'Outcome unknown', level: 2 }).waitFor({ state: 'detached' });
  await finance.getByRole('status').filter({ hasText: 'The acquirer answered Approved: Completed.' }).waitFor();
  await check(finance, 'payment-settled-by-asking');
  expect((await api.ok(`query ($id: ID!) { searchPayments(filter: { id: $id }) { items { status } } }`, { id: lost })).searchPayments.items[0].status).toBe('COMPLETED');
}, 120_000);

test("four eyes by hand: one finance admin records the acquirer's answer on the payment's page, another confirms it on Home", async () => {
  const lost = await shopWithLostAnswer();
  const proposer = admins.financeA.page;
  await proposer.goto(`${web.service.url}/admin?view=payment&id=${lost}`);
  await proposer.getByRole('button', { name: "Record the acquirer's answer for this payment" }).click();
  await dialog(proposer).getByLabel("What the acquirer's records say").selectOption('NEVER_RECEIVED');
  await dialog(proposer).getByLabel('Where you read it, and why (kept in the audit log)').fill('No trace of it in the Customer Area');
  await check(proposer, 'settlement-by-hand-record');
  await dialog(proposer).getByRole('button', { name: 'Record for confirmation' }).click();
  await proposer.getByText(`Recorded: Never received for ${lost}.`, { exact: false }).waitFor();
  await proposer.goto(`${web.service.url}/admin`);
  const ownRow = proposer.getByRole('row').filter({ hasText: lost });
  await ownRow.getByText('Another finance admin confirms it.').waitFor();
  expect(await ownRow.getByRole('button', { name: /^Confirm/ }).count()).toBe(0);

  const checker = admins.financeB.page;
  await checker.goto(`${web.service.url}/admin`);
  await checker.getByRole('heading', { name: 'Settlements by hand to confirm', level: 2 }).waitFor();
  await check(checker, 'settlement-by-hand-home');
  await checker.getByRole('button', { name: `Confirm: ${lost} Never received` }).click();
  await dialog(checker).getByLabel('Reason (kept in the audit log)').fill('Checked the Customer Area myself');
  await dialog(checker).getByRole('button', { name: 'Confirm and settle' }).click();
  await checker.getByText(`The settlement of ${lost} is confirmed: failed.`).waitFor();
  expect((await api.ok(`query ($id: ID!) { searchPayments(filter: { id: $id }) { items { status } } }`, { id: lost })).searchPayments.items[0].status).toBe('FAILED');
}, 120_000);

/** A payment the simulated acquirer charged whose answer never came back (card 4000 0000 0000 0341): it stays processing. */
async function shopWithLostAnswer(): Promise<string> {
  const { apiKey } = await web.service.createShop();
  const created = await fetch(`${web.service.url}/api/v1/payments`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ amount: 2500, currency: 'usd', return_url: 'https://shop.example.com/thanks' }),
  });
  const id = ((await created.json()) as { data: { id: string } }).data.id;
  await checkoutClient(web.service.url).pay(id, '4000000000000341');
  return id;
}

test('Home counts what waits; a chargeback on a refunded payment is listed and opens to contest; nobody met a script error or a request off the site', async () => {
  const { page } = admins.financeA;
  // A payment refunded in full, then charged back: the platform bears it, and finance contests it with the refund.
  const disputed = await completedPayment(web.service, 3000);
  const refundId = (await api.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "Cancelled order") { id } }`, { p: disputed.paymentId })).requestRefund.id;
  const finance = await adminClient(web.service, AdminRole.FINANCE);
  await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: refundId });
  await eventually(async () => (await api.ok(`query ($id: ID!) { refund(id: $id) { status } }`, { id: refundId })).refund.status === 'REFUNDED', 30_000, 'refunded');
  await applyDisputeNotice(web.service.em(), { step: 'chargeBack', paymentId: disputed.paymentId, reference: 'dsp-browser', amount: 3000, currency: 'USD', reason: 'Fraudulent' });

  await go(page, 'Home', 'What is waiting');
  // Home may be open already from an earlier step: what waits now is fetched again.
  await page.getByRole('button', { name: 'Refresh' }).click();
  await page.getByRole('heading', { name: 'Refund requests', exact: true, level: 2 }).waitFor();
  await page.getByText('1 to contest').waitFor();
  await check(page, 'home-finance');
  await go(page, 'Disputes');
  const row = page.getByRole('row').filter({ hasText: disputed.paymentId });
  await row.getByText('To contest').waitFor();
  await check(page, 'disputes');
  await row.getByRole('link', { name: /^Open dispute/ }).click();
  await page.getByRole('heading', { name: /^Dispute dp_/, level: 1 }).waitFor();
  await page.getByRole('link', { name: refundId }).waitFor();
  await check(page, 'dispute');
  for (const admin of Object.values(admins)) {
    expect(admin.offSite).toEqual([]);
    expect(admin.problems.filter((p) => !/status of 4\d\d/.test(p))).toEqual([]);
  }
}, 120_000);
