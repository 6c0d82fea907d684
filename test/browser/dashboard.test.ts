import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { CHECKOUT_CSP } from '../../src/modules/checkout/checkout-page';
import { DASHBOARD_CSP } from '../../src/modules/dashboard/dashboard-page';
import { AdminRole } from '../../src/modules/admins/admin-role';
import { ERROR_CATALOGUE } from '../../src/shared/errors';
import { totpCode } from '../../src/modules/identity/totp';
import { adminClient, eventually } from '../support/admin-client';
import { setUpAdmin } from '../support/admin-session';
import { axeViolations, createPayment, customerPage, fillCard, reloadUntil, useBrowser } from '../support/browser';
import { STRONG_PASSWORD, newEmail } from '../support/dashboard-client';
import { useMailServer } from '../support/mail-server';
import { sellerClient } from '../support/seller-client';
import { useTestService } from '../support/test-service';
import { useReceiver } from '../support/webhook-receiver';

/**
 * The seller dashboard in real Chromium (issue 12): a new seller's walk from sign-up to a new shop, every
 * screen checked by axe-core (WCAG 2.2 AA) at 320 px, the keyboard alone, a cross-site form POST, and one
 * seller's session against another's data. Elements are found by role and label, as people find them.
 */
// One attempt per delivery: a refused delivery is `failed` at once, so its re-send can be tried.
const ENV = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1', RATE_LIMIT_PER_MINUTE: '10000', WEBHOOK_MAX_ATTEMPTS: '1', AUTH_FAILURES_PER_MINUTE: '10000' };
/** A real SMTP server on loopback (SMTP_URL): the tests follow the links of the mails it receives. */
const mail = useMailServer();
const receiver = useReceiver();
const service = useTestService(() => ({ ...ENV, SMTP_URL: mail.url }));
const browser = useBrowser();
/** Shops whose deliveries the receiver answers with 500. */
const refusing = new Set<string>();
const SCREENSHOTS = process.env.DASHBOARD_SCREENSHOTS; // a directory: each screen is saved there to be looked at

beforeAll(() => {
  receiver.reply = (r) => (refusing.has(r.body.shop?.shop_name) ? { status: 500, body: 'down for maintenance' } : { status: 200, body: 'received by the test receiver' });
});

/** The path and query of the link in the next mail to `to` whose subject matches, on this service. */
async function mailedLink(to: string, subject: RegExp): Promise<string> {
  const received = await mail.mailTo(to, subject);
  const link = received.links.find((l) => l.searchParams.get('token'));
  if (!link) throw new Error(`no link in the mail "${received.subject}" to ${to}`);
  return `${service.url}${link.pathname}${link.search}`;
}

interface Seller {
  context: BrowserContext;
  page: Page;
  email: string;
  shopName: string;
  apiKey: string;
  /** Requests to anything but our service (there must be none). */
  offSite: string[];
  problems: string[];
}

async function newContext(width = 1280): Promise<{ context: BrowserContext; page: Page; offSite: string[]; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const offSite: string[] = [];
  const problems: string[] = [];
  page.on('request', (r) => !r.url().startsWith(service.url) && !r.url().startsWith('data:') && offSite.push(r.url()));
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && !/status of 40\d/.test(m.text()) && problems.push(m.text()));
  return { context, page, offSite, problems };
}

/** Signs up through the page, stores the key shown once, continues to the overview. */
async function signUp(shopName = 'Harbour Books'): Promise<Seller> {
  const { context, page, offSite, problems } = await newContext();
  const email = newEmail();
  await page.goto(`${service.url}/dashboard/signup`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByLabel('Shop name').fill(shopName);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByLabel('API key').or(page.getByRole('alert').filter({ hasText: /./ })).first().waitFor();
  const refusal = await page.getByRole('alert').filter({ hasText: /./ }).count();
  if (refusal) throw new Error(`sign-up refused: ${await page.getByRole('alert').filter({ hasText: /./ }).textContent()}`);
  const apiKey = await page.getByLabel('API key').inputValue();
  expect(apiKey).toMatch(/^svc_live_/);
  expect(await page.getByLabel('Webhook secret').inputValue()).toMatch(/^whsec_/);
  await page.getByRole('link', { name: 'I have stored them: continue' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  return { context, page, email, shopName, apiKey, offSite, problems };
}

/** The re-authentication dialog a sensitive change opens (payout account, webhook URL and secret, deleting or creating a shop): the password, then Confirm. */
async function confirmWithPassword(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await dialog.getByLabel('Current password').fill(STRONG_PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.waitFor({ state: 'detached' });
}

async function nav(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}

async function payOnCheckout(paymentId: string) {
  const customer = await customerPage(browser);
  await customer.page.goto(`${service.url}/checkout/${paymentId}`);
  await fillCard(customer.page, { number: '4242 4242 4242 4242' });
  await customer.page.getByRole('button', { name: /^Pay / }).click();
  await customer.page.waitForURL(/shop\.example\.test/);
  await customer.close();
}

/** A finance admin made by the CLI (set-up link followed) signs in at /admin with a TOTP code and approves the withdrawal. */
async function approveInConsole(withdrawalId: string, shopId: string) {
  const admin = await setUpAdmin(service, AdminRole.FINANCE);
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const adminPage = await context.newPage();
  await adminPage.goto(`${service.url}/admin`);
  await adminPage.getByLabel('Email').fill(admin.email);
  await adminPage.getByLabel('Password').fill(admin.password);
  await adminPage.getByLabel('Authentication code').fill(totpCode(admin.secret, Date.now() + 30_000));
  await adminPage.getByRole('button', { name: 'Sign in' }).click();
  await adminPage.getByText(`${admin.email} (finance)`).waitFor();
  // The back office opens on Home; the query console with its presets is one click away.
  await adminPage.getByRole('link', { name: 'Query console' }).click();
  const result = adminPage.locator('.result-window');
  const runWith = async (preset: string, variables: Record<string, unknown>, shows: string) => {
    await adminPage.getByRole('button', { name: preset }).click();
    await adminPage.locator('.graphiql-editor-tool .CodeMirror').first().click();
    await adminPage.keyboard.press('Control+A');
    await adminPage.keyboard.insertText(JSON.stringify(variables));
    await adminPage.getByRole('button', { name: /Execute query/ }).click();
    await result.filter({ hasText: shows }).waitFor({ timeout: 30_000 });
  };
  // Narrowed to the seller's shop, as finance would: the run's other suites leave requests in the same queue.
  await runWith('Withdrawal queue', { status: 'REQUESTED', shopId, page: 1, limit: 20 }, withdrawalId);
  await runWith('Approve a withdrawal', { id: withdrawalId }, '"status": "APPROVED"');
  await context.close();
}

async function shoot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

test('the dashboard is served with the checkout page\'s strict CSP, its first load is far under 150 KB gzipped, and an unknown screen says so', async () => {
  expect(DASHBOARD_CSP).toBe(CHECKOUT_CSP);
  const firstLoad = JSON.parse(fs.readFileSync(path.join(__dirname, '../../dist/dashboard-ui/first-load.json'), 'utf8'));
  expect(firstLoad.gzipped).toBeLessThan(150 * 1024);
  const { context, page, offSite } = await newContext();
  const response = await page.goto(`${service.url}/dashboard/login`);
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toBe(DASHBOARD_CSP);
  // What the browser really fetched for the first load, compressed as sent, is under the budget too.
  const sizes = await page.evaluate(() => performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation')).map((e) => (e as PerformanceResourceTiming).transferSize));
  expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThan(150 * 1024);
  await page.goto(`${service.url}/dashboard/nowhere`);
  await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  expect(offSite).toEqual([]);
  await context.close();
});

test('a new seller: sign up, key shown once, a payment over REST paid on the checkout page shows completed with fee and net, webhook test delivery answered, e-mail verified, withdrawal refused below the minimum and held above, approved by an admin signed in at /admin with TOTP, refund requested, shop deleted (old key 401 at once), a new shop whose key works', async () => {
  const seller = await signUp();
  const { page } = seller;
  await shoot(page, 'overview-empty');

  // The key shown once works over REST; the payment is paid by a customer on the checkout page.
  const paymentId = await createPayment(service, seller.apiKey, { amount: 5000, customer_email: 'ann@example.com' });
  await payOnCheckout(paymentId);

  await nav(page, 'Payments');
  await page.getByRole('link', { name: paymentId }).click();
  await page.getByRole('heading', { name: 'Payment $50.00', level: 1 }).waitFor();
  const detail = page.locator('dl.details');
  await expect(detail.getByText('Completed')).toBeTruthy();
  expect(await detail.textContent()).toMatch(/StatusCompleted.*Amount\$50\.00Fee\$7\.50Net\$42\.50/);
  expect(await page.getByLabel('Checkout link').inputValue()).toBe(`https://pay.example.test/checkout/${paymentId}`);
  await shoot(page, 'payment');

  // Webhook URL to a local receiver, then a test delivery: the receiver's answer is on the screen.
  await nav(page, 'Developers');
  await page.getByLabel('Webhook URL').fill(receiver.url);
  await page.getByRole('button', { name: 'Save webhook URL' }).click();
  await confirmWithPassword(page);
  await page.getByText('Webhook URL saved.').waitFor();
  await page.getByRole('button', { name: 'Send test delivery' }).click();
  const webhooks = page.getByRole('region', { name: 'Webhooks' });
  await webhooks.getByText('HTTP 200: received by the test receiver').waitFor({ timeout: 90_000 }).catch(async (error: Error) => {
    throw new Error(`${error.message}\nthe Webhooks section shows: ${await webhooks.innerText()}\nthe receiver had ${receiver.received.length} requests`);
  });
  expect(receiver.received.some((r) => r.headers['x-service-test'] === 'true')).toBe(true);
  await shoot(page, 'developers');

  // Where the payout goes (needed before a withdrawal): after entry the number is shown masked, and the page never holds it whole again.
  await nav(page, 'Withdrawals');
  await page.getByLabel('Account holder').fill('Harbour Books Ltd');
  await page.getByLabel('Bank account number').fill('DE89 3704 0044 0532 0130 00');
  await page.getByRole('button', { name: 'Save payout account' }).click();
  await confirmWithPassword(page);
  await page.getByText('Payout account saved: •••• 3000.').waitFor();
  await page.reload();
  await page.getByRole('heading', { name: 'Withdrawals', level: 1 }).waitFor();
  await page.getByText('Payouts go to Harbour Books Ltd, bank account •••• 3000.').waitFor();
  expect(await page.content()).not.toContain('370400440532');
  expect(await page.getByLabel('Bank account number').inputValue()).toBe('');
  // Before verification a withdrawal is refused in the API's words; the link of the mail verifies the address.
  await page.getByLabel('Amount (USD)').fill('20');
  await page.getByRole('button', { name: 'Request withdrawal' }).click();
  await page.getByRole('alert').getByText(ERROR_CATALOGUE.EMAIL_NOT_VERIFIED.message as string).waitFor();
  await page.goto(await mailedLink(seller.email, /Verify your email address/));
  await page.getByText('Your email address is verified').waitFor();

  await nav(page, 'Withdrawals');
  await page.getByLabel('Amount (USD)').fill('5');
  await page.getByRole('button', { name: 'Request withdrawal' }).click();
  // The API's words, with the amount in dollars.
  await page.getByRole('alert').getByText('Withdrawal amount must be at least $10.00').waitFor();
  await page.getByLabel('Amount (USD)').fill('20.50');
  await page.getByRole('button', { name: 'Request withdrawal' }).click();
  await page.getByText('Withdrawal of $20.50 requested').waitFor();
  await page.getByRole('region', { name: 'Your withdrawals' }).getByRole('cell', { name: 'Requested' }).waitFor();
  await shoot(page, 'withdrawals');

  // A finance admin signs in at /admin with password and TOTP code, finds the withdrawal in the queue and
  // approves it in the console; the seller then sees it approved.
  const [{ id: withdrawalId, shop_id: shopId }] = await service.em().getConnection().execute(`select w."id", w."shop_id" from "withdrawals" w join "sellers" s on s."id" = w."seller_id" where s."email" = ?`, [seller.email]);
  await approveInConsole(withdrawalId, shopId);
  await page.reload();
  await page.getByRole('region', { name: 'Your withdrawals' }).getByRole('cell', { name: 'Approved' }).waitFor();

  // A refund request from the payment's page reaches the admins' queue as the seller's request.
  await nav(page, 'Payments');
  await page.getByRole('link', { name: paymentId }).click();
  await page.getByLabel('Reason').fill('The customer returned the book');
  await page.getByRole('button', { name: 'Request refund' }).click();
  await page.getByText('Refund request sent').waitFor();
  const finance = await adminClient(service, AdminRole.FINANCE);
  const queue = await finance.ok(`query ($p: ID!) { refunds(status: REQUESTED, paymentId: $p) { items { id reason requestedBy { id } } } }`, { p: paymentId });
  expect(queue.refunds.items).toEqual([expect.objectContaining({ reason: 'The customer returned the book', requestedBy: null })]);
  // Finance may approve it (four eyes: no admin asked), and the seller sees the status.
  await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { status } }`, { id: queue.refunds.items[0].id });
  await page.reload();
  await page.getByRole('region', { name: 'Refund' }).or(page.locator('section', { has: page.getByRole('heading', { name: 'Refund' }) })).getByText(/Approved|Processing|Refunded/).first().waitFor();

  // Delete the shop: what goes with it is said first; a wrong name is refused; the right one stops the old key at once.
  await nav(page, 'Developers');
  await page.getByRole('listitem').filter({ hasText: 'The webhook signing secret goes with the shop' }).waitFor();
  await page.getByRole('listitem').filter({ hasText: 'The webhook URL and its events can be kept' }).waitFor();
  await page.getByRole('listitem').filter({ hasText: "The new key does not read this shop's payments" }).waitFor();
  await page.getByLabel('Type the shop name to confirm').fill('Harbour Book');
  await page.getByRole('button', { name: 'Delete shop' }).click();
  await page.getByRole('alert').getByText('not the shop name').waitFor();
  expect((await sellerClient(service.url, seller.apiKey).list()).status).toBe(200);
  await page.getByLabel('Type the shop name to confirm').fill(seller.shopName);
  await page.getByRole('button', { name: 'Delete shop' }).click();
  await confirmWithPassword(page);
  await page.getByText('Shop deleted. Its API key no longer works.').waitFor();
  const refused = await sellerClient(service.url, seller.apiKey).list();
  expect(refused.status).toBe(401);
  expect(refused.body).toEqual({ success: false, error: 'Invalid API key' });

  // A new shop: a new key, shown once, that works.
  await page.getByLabel('Shop name').fill('Harbour Books Two');
  await page.getByRole('button', { name: 'Create a new shop' }).click();
  await confirmWithPassword(page);
  const newKey = await page.getByLabel('API key').inputValue();
  expect(newKey).not.toBe(seller.apiKey);
  expect((await sellerClient(service.url, newKey).create({ amount: 1000, currency: 'usd', return_url: 'https://shop.example.test/r' })).status).toBe(200);
  await page.getByRole('link', { name: 'I have stored them: continue' }).click();
  await page.getByRole('heading', { name: 'Developers', level: 1 }).waitFor();
  // Never again: the key is nowhere on the Developers screen.
  expect(await page.getByRole('textbox', { name: 'API key' }).count()).toBe(0);
  expect(await page.content()).not.toContain(newKey);

  expect(seller.offSite).toEqual([]);
  expect(seller.problems).toEqual([]);
  await seller.context.close();
}, 120_000);

test('every screen has no WCAG 2.2 AA violation (axe-core) and fits 320 px without sideways scrolling', async () => {
  const seller = await signUp('Narrow Shop');
  const paymentId = await createPayment(service, seller.apiKey, { amount: 2500 });
  await payOnCheckout(paymentId);
  const { page } = seller;
  await page.setViewportSize({ width: 320, height: 800 });
  const screens: [string, string][] = [
    ['overview', '/dashboard'], ['payments', '/dashboard/payments'], ['payments-filtered', '/dashboard/payments?status=FAILED'],
    ['payment', `/dashboard/payments/${paymentId}`], ['withdrawals', '/dashboard/withdrawals'], ['developers', '/dashboard/developers'],
    ['account', '/dashboard/account'], ['verify-email-bad', '/dashboard/verify-email?token=nope'],
  ];
  for (const [name, address] of screens) {
    await page.goto(`${service.url}${address}`);
    await page.locator('h1').waitFor();
    await page.getByText('Loading…').waitFor({ state: 'detached' });
    expect([name, await axeViolations(page)]).toEqual([name, []]);
    expect([name, await page.evaluate(() => document.documentElement.scrollWidth)]).toEqual([name, 320]);
    await shoot(page, `320-${name}`);
  }
  // The signed-out screens too.
  const { context, page: anonymous } = await newContext(320);
  for (const address of ['/dashboard/signup', '/dashboard/login', '/dashboard/reset-password', '/dashboard/reset-password?token=nope', '/dashboard/accept-invitation?token=nope']) {
    await anonymous.goto(`${service.url}${address}`);
    await anonymous.locator('h1').waitFor();
    await anonymous.getByRole('button', { name: /^(Create account|Sign in|Send reset link|Set new password|Set password)$/ }).click();
    // An error, or the one answer of the reset request (given whatever the address).
    await anonymous.getByRole('alert').or(anonymous.getByRole('status').filter({ hasText: 'If this address has an account' })).first().waitFor();
    expect([address, await axeViolations(anonymous)]).toEqual([address, []]);
    expect(await anonymous.evaluate(() => document.documentElement.scrollWidth)).toBe(320);
    await shoot(anonymous, `320-${address.split('/').pop()!.replace('?token=nope', '-link')}`);
  }
  await context.close();
  await seller.context.close();
}, 120_000);

test('the keyboard alone: sign in, reach Withdrawals through the navigation, request a withdrawal, sign out', async () => {
  const seller = await signUp('Keyboard Shop');
  // A withdrawal is asked for once a payout account is saved (saved here as the Withdrawals screen would).
  await service.em().getConnection().execute(`update "sellers" set "payout_account_holder" = 'Keyboard Shop Ltd', "payout_account_number" = 'DE89370400440532013000', "payout_account_last4" = '3000' where "email" = ?`, [seller.email]);
  await seller.context.clearCookies();
  const { page } = seller;
  await page.goto(`${service.url}/dashboard/login`);
  const tabTo = async (matches: () => Promise<boolean>, what: string) => {
    for (let i = 0; i < 40; i += 1) {
      await page.keyboard.press('Tab');
      if (await matches()) return;
    }
    throw new Error(`Tab never reached ${what}`);
  };
  const focusedLabel = () => page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return (el?.id && document.querySelector(`label[for="${el.id}"]`)?.textContent) || el?.textContent || '';
  });
  await tabTo(async () => (await focusedLabel()) === 'Email', 'Email');
  await page.keyboard.type(seller.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(STRONG_PASSWORD);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  // Focus moved to the new screen's heading; the navigation is reached with Tab and followed with Enter.
  await tabTo(async () => (await focusedLabel()) === 'Withdrawals', 'the Withdrawals link');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Withdrawals', level: 1 }).waitFor();
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
  await tabTo(async () => (await focusedLabel()) === 'Amount (USD)', 'Amount (USD)');
  await page.keyboard.type('5');
  await page.keyboard.press('Enter');
  await page.getByRole('alert').getByText('Withdrawal amount must be at least $10.00').waitFor();
  await page.keyboard.press('Shift+Tab');
  await tabTo(async () => (await focusedLabel()) === 'Sign out', 'Sign out');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
  await page.goto(`${service.url}/dashboard/withdrawals`);
  await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
  await page.getByText('Your session has ended').waitFor();
  await seller.context.close();
}, 120_000);

test('a cross-site form POST with the seller signed in changes nothing: the session cookie stays home and no CSRF token comes along', async () => {
  const seller = await signUp('Guarded Shop');
  const { page, context } = seller;
  const EVIL = 'https://evil.example.test';
  await context.route(`${EVIL}/**`, (route) => route.fulfill({
    status: 200,
    contentType: 'text/html',
    body: `<!doctype html><title>Win</title><form id="f" method="post" action="${service.url}/graphql" enctype="text/plain">
      <input name='{"query":"mutation { setWebhookUrl(url: \\"https://attacker.example/hook\\") { id } }","x":"' value='"}'>
      </form><form id="g" method="post" action="${service.url}/dashboard/developers"><input name="shopName" value="Guarded Shop"></form>`,
  }));
  const attacker = await context.newPage();
  await attacker.goto(`${EVIL}/`);
  const [first] = await Promise.all([attacker.waitForResponse((r) => r.url().endsWith('/graphql')), attacker.evaluate(() => (document.getElementById('f') as HTMLFormElement).submit())]);
  expect(first.status()).toBeGreaterThanOrEqual(400);
  const again = await context.newPage();
  await again.goto(`${EVIL}/`);
  const [second] = await Promise.all([again.waitForResponse((r) => r.url().endsWith('/dashboard/developers')), again.evaluate(() => (document.getElementById('g') as HTMLFormElement).submit())]);
  expect(second.status()).toBe(404);
  // Nothing changed: the shop still has no webhook URL and still exists.
  await page.goto(`${service.url}/dashboard/developers`);
  expect(await page.getByLabel('Webhook URL').inputValue()).toBe('');
  expect((await sellerClient(service.url, seller.apiKey).list()).status).toBe(200);
  await context.close();
}, 120_000);

test("one seller's session never sees another seller's payment, balance, delivery or withdrawal", async () => {
  const owner = await signUp('Owner Shop');
  const paymentId = await createPayment(service, owner.apiKey, { amount: 4000, customer_email: 'private@example.com' });
  await payOnCheckout(paymentId);
  await eventually(async () => (await sellerClient(service.url, owner.apiKey).retrieve(paymentId)).body.data.status === 'completed', 30_000, 'completed');
  const ownerSession = owner.page;
  await ownerSession.goto(`${service.url}/dashboard/payments/${paymentId}`);
  await ownerSession.getByRole('heading', { name: 'Payment $40.00' }).waitFor();

  const other = await signUp('Other Shop');
  const { page } = other;
  await page.goto(`${service.url}/dashboard/payments/${paymentId}`);
  await page.getByRole('alert').getByText('Payment not found').waitFor();
  await page.goto(`${service.url}/dashboard/payments?q=private%40example.com`);
  await page.getByText('No payment matches these filters.').waitFor();
  await page.goto(`${service.url}/dashboard/payments?q=${paymentId}`);
  await page.getByText('No payment matches these filters.').waitFor();
  await page.goto(`${service.url}/dashboard`);
  expect(await page.locator('dl.figures').textContent()).toContain('Available balance$0.00');
  await page.goto(`${service.url}/dashboard/withdrawals`);
  await page.getByText('No withdrawals yet.').waitFor();
  await page.goto(`${service.url}/dashboard/developers`);
  await page.getByText('No deliveries yet.').waitFor();
  expect(await page.content()).not.toContain(paymentId);
  await owner.context.close();
  await other.context.close();
}, 90_000);

test('a failed delivery shows in the log with its answer and is re-sent from the Developers screen', async () => {
  const seller = await signUp('Failing Shop');
  const { page } = seller;
  refusing.add('Failing Shop');
  await nav(page, 'Developers');
  await page.getByLabel('Webhook URL').fill(receiver.url);
  await page.getByRole('button', { name: 'Save webhook URL' }).click();
  await confirmWithPassword(page);
  await page.getByText('Webhook URL saved.').waitFor();
  const paymentId = await createPayment(service, seller.apiKey, { amount: 3000 });
  await payOnCheckout(paymentId);
  const log = page.getByRole('region', { name: 'Delivery log' });
  await reloadUntil(page, service, 'Developers', async () => (await log.getByRole('cell', { name: 'Failed' }).count()) > 0, 'the delivery failed');
  await log.getByText('HTTP 500: down for maintenance').waitFor();
  refusing.delete('Failing Shop');
  await log.getByRole('button', { name: /^Re-send payment\.completed delivery/ }).click();
  await page.getByText('Delivery re-sent').waitFor();
  await reloadUntil(page, service, 'Developers', async () => (await log.getByRole('cell', { name: 'Delivered' }).count()) > 0, 'the re-sent delivery delivered');
  // The payment's page lists the same delivery.
  await page.goto(`${service.url}/dashboard/payments/${paymentId}`);
  await page.getByRole('region', { name: 'Webhook deliveries of this payment' }).getByRole('cell', { name: 'Delivered' }).waitFor();
  await seller.context.close();
}, 90_000);

test('10 wrong passwords lock the account with a message that says so; an idle session ends and the page asks to sign in again', async () => {
  const seller = await signUp('Locked Shop');
  const { page, context } = seller;
  // Idle: the session's last request moved 15 minutes back (the clock moved in the database).
  const em = service.em();
  await em.getConnection().execute(`update "seller_sessions" set "last_seen_at" = now() - interval '15 minutes 1 second' where "seller_id" = (select "id" from "sellers" where "email" = ?)`, [seller.email]);
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Payments', exact: true }).click();
  await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
  await page.getByRole('alert').getByText('Your session has ended. Please sign in again.').waitFor();
  expect(new URL(page.url()).searchParams.get('next')).toBe('/dashboard/payments');

  for (let i = 1; i <= 10; i += 1) {
    await page.getByLabel('Email', { exact: true }).fill(seller.email);
    await page.getByLabel('Password', { exact: true }).fill(`wrong-password-number-${i}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText(i < 10 ? ERROR_CATALOGUE.SIGN_IN_FAILED.message as string : /Account locked after 10 failed sign-ins/).waitFor();
  }
  await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').getByText(/Account locked/).waitFor();
  expect(await page.getByRole('heading', { name: 'Sign in', level: 1 }).count()).toBe(1);
  await context.close();
}, 90_000);
