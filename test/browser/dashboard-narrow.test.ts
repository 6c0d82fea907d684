import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { eventually } from '../support/admin-client';
import { axeViolations, createPayment, customerPage, fillCard, useBrowserService } from '../support/browser';
import { STRONG_PASSWORD, newEmail } from '../support/dashboard-client';
import { sellerClient } from '../support/seller-client';
import { useReceiver } from '../support/webhook-receiver';

/**
 * The seller dashboard on a phone and in another time zone (docs/dashboard.md): every screen, with a row in each of
 * its tables, fits 375 px without scrolling sideways (a table row becomes a card of labelled lines; the payment row's
 * Net, Customer and Created are on screen), is axe-clean at 375 and 1280 px, and names the time zone of every time it
 * shows (a browser in New York reads EST or EDT). Statements are offered from the account's first month only. Then the
 * new shop keeps the deleted shop's webhook URL and events when the seller leaves the box ticked. Found by role and
 * label; each screen saved at both widths when DASHBOARD_SCREENSHOTS names a directory.
 */
jest.setTimeout(240_000);
const hook = useReceiver();
const web = useBrowserService(
  { SIMULATED_EVENT_DELAY_MS: '500', RATE_LIMIT_PER_MINUTE: '10000', AUTH_FAILURES_PER_MINUTE: '10000', WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1' },
  { customerPage: false },
);
const SCREENSHOTS = process.env.DASHBOARD_SCREENSHOTS;
const contexts: BrowserContext[] = [];
afterAll(async () => {
  for (const context of contexts) await context.close();
});

async function newPage(timezoneId = 'America/New_York'): Promise<{ page: Page; problems: string[] }> {
  const context = await web.browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId });
  contexts.push(context);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => message.type() === 'error' && !/status of 40\d/.test(message.text()) && problems.push(message.text()));
  return { page, problems };
}

const summary = (violations: Awaited<ReturnType<typeof axeViolations>>) => violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** At 375 px then 1280 px: axe-clean, nothing wider than the window, saved when asked. */
async function check(page: Page, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    expect([name, width, await fitsWidth(page)]).toEqual([name, width, true]);
    expect([name, width, summary(await axeViolations(page))]).toEqual([name, width, []]);
    if (SCREENSHOTS) {
      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
    }
  }
  await page.setViewportSize({ width: 375, height: 900 });
}

/** Every time on the screen ("2:05 PM", "2:05:03 PM") is followed by its zone: New York's name, as this browser is there. */
async function timesNameTheirZone(page: Page, name: string) {
  const text = await page.locator('main').innerText();
  const times = [...text.matchAll(/\d{1,2}:\d{2}(?::\d{2})?\s?[AP]M(\s?\S*)/g)];
  expect([name, times.length > 0]).toEqual([name, true]);
  expect([name, times.filter((t) => !/^\s(EST|EDT)\b/.test(t[1])).map((t) => t[0])]).toEqual([name, []]);
}

async function open(page: Page, address: string, title: string | RegExp) {
  await page.goto(`${web.service.url}${address}`);
  await page.getByRole('heading', { name: title, level: 1 }).waitFor();
  await page.getByText('Loading…').waitFor({ state: 'detached' });
}

async function confirmWithPassword(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await dialog.getByLabel('Current password').fill(STRONG_PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.waitFor({ state: 'detached' });
}

async function signUp(page: Page, shopName: string): Promise<{ apiKey: string; email: string }> {
  const email = newEmail();
  await page.goto(`${web.service.url}/dashboard/signup`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByLabel('Shop name').fill(shopName);
  await page.getByRole('button', { name: 'Create account' }).click();
  const apiKey = await page.getByLabel('API key').inputValue();
  await page.getByRole('link', { name: 'I have stored them: continue' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  return { apiKey, email };
}

async function pay(paymentId: string, card: string) {
  const customer = await customerPage(web.browser);
  await customer.page.goto(`${web.service.url}/checkout/${paymentId}`);
  await fillCard(customer.page, { number: card });
  await customer.page.getByRole('button', { name: /^Pay / }).click();
  await customer.page.waitForURL(/shop\.example\.test/);
  await customer.close();
}

test('every screen at 375 px: no sideways scroll, the payment row whole, every time with its zone, statements from the first month, axe-clean at 375 and 1280 px', async () => {
  const { page, problems } = await newPage();
  const { apiKey, email } = await signUp(page, 'Pocket Books');
  const sql = (query: string, params: unknown[]) => web.service.em().getConnection().execute(query, params);

  // A row for every table: a paid payment with its customer, a disputed one, a refund request, a withdrawal, a webhook delivery, API requests.
  const paymentId = await createPayment(web.service, apiKey, { amount: 5000, customer_email: 'ann.longname@example.com', customer_name: 'Ann Longname' });
  await pay(paymentId, '4242 4242 4242 4242');
  const disputedId = await createPayment(web.service, apiKey, { amount: 2500 });
  await pay(disputedId, '4000 0000 0000 0259');
  await sellerClient(web.service.url, apiKey).list();
  await sql(`update "sellers" set "email_verified_at" = now(), "payout_account_holder" = 'Pocket Books Ltd', "payout_account_number" = 'DE89370400440532013000', "payout_account_last4" = '3000' where "email" = ?`, [email]);
  await open(page, '/dashboard/withdrawals', 'Withdrawals');
  await page.getByLabel('Amount (USD)').fill('10');
  await page.getByRole('button', { name: 'Request withdrawal' }).click();
  await page.getByText('Withdrawal of $10.00 requested').waitFor();
  await open(page, `/dashboard/payments/${paymentId}`, 'Payment $50.00');
  await page.getByLabel('Reason').fill('Returned');
  await page.getByLabel('Amount (USD)').fill('5');
  await page.getByRole('button', { name: 'Request refund' }).click();
  await page.getByText('Refund request sent').waitFor();
  await open(page, '/dashboard/developers', 'Developers');
  await page.getByLabel('Webhook URL').fill(hook.url);
  await page.getByRole('button', { name: 'Save webhook URL' }).click();
  await confirmWithPassword(page);
  await page.getByText('Webhook URL saved.').waitFor();
  await page.getByRole('button', { name: 'Send test delivery' }).click();
  await page.getByText('Test delivery answered.').waitFor({ timeout: 90_000 });
  await eventually(async () => {
    await open(page, '/dashboard/disputes', 'Disputes');
    return (await page.getByRole('region', { name: 'Disputes' }).count()) > 0;
  }, 20_000, 'the test card is charged back');

  await page.setViewportSize({ width: 375, height: 900 });
  // The payments table at 375 px: the row is a card, its Net, Customer and Created on screen, nothing scrolls sideways.
  await open(page, '/dashboard/payments', 'Payments');
  expect(await fitsWidth(page)).toBe(true);
  const row = page.getByRole('region', { name: 'Payments' }).getByRole('row').filter({ has: page.getByRole('link', { name: paymentId }) });
  for (const [column, shows] of [['Net', /^\$42\.50$/], ['Customer', /^ann\.longname@example\.com · Ann Longname$/], ['Created', /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M\sE[SD]T$/]] as const) {
    const cell = row.locator(`td[data-label="${column}"]`);
    const box = (await cell.boundingBox())!;
    expect([column, await cell.isVisible(), box.x >= 0 && box.x + box.width <= 375]).toEqual([column, true, true]);
    expect(await cell.innerText()).toMatch(shows);
    // Labelled by its column on the card (the table's header row is hidden at this width).
    expect(await cell.evaluate((td) => getComputedStyle(td, '::before').content)).toBe(`"${column}: "`);
  }

  // Statements: the account was opened this month, so this month is all there is; the month before is refused by name.
  const month = new Date().toISOString().slice(0, 7);
  const before = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  await open(page, '/dashboard/balance', 'Balance');
  const months = page.getByRole('region', { name: 'Monthly statements' });
  expect(await months.getByRole('listitem').count()).toBe(1);
  expect([await page.getByLabel('Month', { exact: true }).getAttribute('min'), await page.getByLabel('Month', { exact: true }).getAttribute('max')]).toEqual([month, month]);
  await page.getByLabel('Month', { exact: true }).fill(before);
  await page.getByRole('button', { name: 'Open statement' }).click();
  await page.getByRole('alert').getByText(/^Statements run from /).waitFor();
  await open(page, `/dashboard/balance/statements/${before}`, 'This page could not be shown');
  await page.getByRole('alert').getByText(`There is no statement of a month before the account was opened; its first month is ${month}`).waitFor();

  const screens: [string, string, string | RegExp][] = [
    ['overview', '/dashboard', 'Overview'],
    ['payments', '/dashboard/payments', 'Payments'],
    ['payment', `/dashboard/payments/${paymentId}`, 'Payment $50.00'],
    ['balance', '/dashboard/balance', 'Balance'],
    ['statement', `/dashboard/balance/statements/${month}`, /^Statement for /],
    ['disputes', '/dashboard/disputes', 'Disputes'],
    ['withdrawals', '/dashboard/withdrawals', 'Withdrawals'],
    ['developers', '/dashboard/developers', 'Developers'],
    ['logs', '/dashboard/logs', 'Logs'],
    ['account', '/dashboard/account', 'Account'],
  ];
  for (const [name, address, title] of screens) {
    await open(page, address, title);
    if (name === 'statement') {
      expect(await page.getByRole('link', { name: /^Previous: / }).count()).toBe(0);
      expect(await page.getByRole('link', { name: /^Next: / }).count()).toBe(0);
    }
    if (name !== 'logs' || (await page.getByRole('region', { name: 'API requests' }).count()) > 0) await timesNameTheirZone(page, name);
    await check(page, `narrow-${name}`);
  }
  // The signed-out screens too.
  const { page: anonymous } = await newPage();
  for (const [name, address, title] of [['sign-in', '/dashboard/login', 'Sign in'], ['sign-up', '/dashboard/signup', 'Create your seller account']]) {
    await open(anonymous, address, title);
    await check(anonymous, `narrow-${name}`);
  }
  expect(problems).toEqual([]);
});

test('a new shop keeps the deleted shop\'s webhook URL and events when the box stays ticked; its secret and key are new', async () => {
  const { page, problems } = await newPage('UTC');
  await signUp(page, 'Kept Hooks');
  await open(page, '/dashboard/developers', 'Developers');
  await page.getByLabel('Webhook URL').fill(hook.url);
  await page.getByRole('button', { name: 'Save webhook URL' }).click();
  await confirmWithPassword(page);
  await page.getByText('Webhook URL saved.').waitFor();
  await page.getByRole('checkbox', { name: /^payment\.failed/ }).check();
  await page.getByRole('checkbox', { name: /^withdrawal\.paid/ }).check();
  await page.getByRole('button', { name: 'Save events' }).click();
  await page.getByText(/^Events saved/).waitFor();

  // The delete form says the URL and events can be kept, and the secret cannot.
  await page.getByRole('listitem').filter({ hasText: 'The webhook URL and its events can be kept' }).waitFor();
  await page.getByRole('listitem').filter({ hasText: 'The webhook signing secret goes with the shop' }).waitFor();
  await page.getByLabel('Type the shop name to confirm').fill('Kept Hooks');
  await page.getByRole('button', { name: 'Delete shop' }).click();
  await confirmWithPassword(page);
  await page.getByText('Shop deleted. Its API key no longer works.').waitFor();

  const keep = page.getByRole('checkbox', { name: 'Keep the webhook URL and events of “Kept Hooks”' });
  expect(await keep.isChecked()).toBe(true);
  await page.getByText(hook.url).waitFor();
  await page.getByText('payment.completed, payment.failed, withdrawal.paid').waitFor();
  await check(page, 'new-shop-keep');
  await page.getByLabel('Shop name').fill('Kept Hooks Two');
  await page.getByRole('button', { name: 'Create a new shop' }).click();
  await confirmWithPassword(page);
  const newKey = await page.getByLabel('API key').inputValue();
  expect(newKey).toMatch(/^svc_live_/);
  expect(await page.getByLabel('Webhook secret').inputValue()).toMatch(/^whsec_/);
  await page.getByText(/^Kept from your previous shop: /).waitFor();
  await check(page, 'new-shop-credentials');
  await page.getByRole('link', { name: 'I have stored them: continue' }).click();
  await page.getByRole('heading', { name: 'Developers', level: 1 }).waitFor();
  expect(await page.getByLabel('Webhook URL').inputValue()).toBe(hook.url);
  expect(await page.getByRole('checkbox', { name: /^payment\.failed/ }).isChecked()).toBe(true);
  expect(await page.getByRole('checkbox', { name: /^withdrawal\.paid/ }).isChecked()).toBe(true);
  expect(await page.getByRole('checkbox', { name: /^refund\.failed/ }).isChecked()).toBe(false);

  // Unticked, the next shop starts bare.
  await page.getByLabel('Type the shop name to confirm').fill('Kept Hooks Two');
  await page.getByRole('button', { name: 'Delete shop' }).click();
  await confirmWithPassword(page);
  await page.getByRole('checkbox', { name: 'Keep the webhook URL and events of “Kept Hooks Two”' }).uncheck();
  await page.getByLabel('Shop name').fill('Bare Shop');
  await page.getByRole('button', { name: 'Create a new shop' }).click();
  await confirmWithPassword(page);
  expect(await page.getByText(/^Kept from your previous shop/).count()).toBe(0);
  await page.getByRole('link', { name: 'I have stored them: continue' }).click();
  await page.getByRole('heading', { name: 'Developers', level: 1 }).waitFor();
  expect(await page.getByLabel('Webhook URL').inputValue()).toBe('');
  expect(problems).toEqual([]);
});
