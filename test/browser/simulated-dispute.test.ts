import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { AdminRole } from '../../src/modules/admins/admin-role';
import { nextCode, setUpAdmin } from '../support/admin-session';
import { axeViolations, createPayment, customerPage, fillCard, reloadUntil, useBrowserService } from '../support/browser';
import { STRONG_PASSWORD, newEmail } from '../support/dashboard-client';

/**
 * The dispute test card end to end in Chromium (docs/checkout.md, "What follows a charge"): a seller signs up, a
 * customer pays with 4000 0000 0000 0259 on the checkout page, and a few moments later the seller's Disputes screen
 * and the back office show the chargeback; a finance admin has the simulated issuer reverse it, support is not offered
 * the button, and the seller sees it reversed. The checkout page shows its test-mode banner. Elements are found by role
 * and label; each screen is checked by axe at 375 and 1280 px, and saved there when SIMULATED_DISPUTE_SCREENSHOTS names
 * a directory.
 */
const web = useBrowserService({ SIMULATED_EVENT_DELAY_MS: '500', RATE_LIMIT_PER_MINUTE: '10000' }, { customerPage: false });
const SCREENSHOTS = process.env.SIMULATED_DISPUTE_SCREENSHOTS;
const contexts: BrowserContext[] = [];
afterAll(async () => {
  for (const context of contexts) await context.close();
});

async function newPage(): Promise<{ page: Page; problems: string[] }> {
  const context = await web.browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => message.type() === 'error' && !/status of 40\d/.test(message.text()) && problems.push(message.text()));
  return { page, problems };
}

const summary = (violations: Awaited<ReturnType<typeof axeViolations>>) => violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);

/** axe at 375 and 1280 px, nothing wider than the window at either, and a full-page screenshot at each when asked for. */
async function check(page: Page, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    expect([name, width, summary(await axeViolations(page))]).toEqual([name, width, []]);
    expect([name, width, await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)]).toEqual([name, width, true]);
    if (SCREENSHOTS) {
      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function signUpSeller(): Promise<{ page: Page; problems: string[]; apiKey: string }> {
  const { page, problems } = await newPage();
  await page.goto(`${web.service.url}/dashboard/signup`);
  await page.getByLabel('Email', { exact: true }).fill(newEmail());
  await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByLabel('Shop name').fill('Dispute Books');
  await page.getByRole('button', { name: 'Create account' }).click();
  const apiKey = await page.getByLabel('API key').inputValue();
  await page.getByRole('link', { name: 'I have stored them: continue' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  return { page, problems, apiKey };
}

async function adminSignIn(role: AdminRole): Promise<{ page: Page; problems: string[] }> {
  const admin = await setUpAdmin(web.service, role);
  const { page, problems } = await newPage();
  await page.goto(`${web.service.url}/admin`);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByLabel('Authentication code').fill(nextCode(admin.secret));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'What is waiting', level: 1 }).waitFor();
  return { page, problems };
}

/**
 * The dispute's page in the back office, opened from the open disputes list as a person does: newest first, since
 * other suites' open disputes in this database fill the first pages of the oldest-first list.
 */
async function openDispute(page: Page, paymentId: string) {
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Disputes', exact: true }).click();
  await page.getByRole('heading', { name: 'Disputes', level: 1 }).waitFor();
  await page.getByRole('columnheader', { name: /^Opened/ }).getByRole('button').click();
  await page.getByRole('columnheader', { name: /^Opened/, exact: false }).and(page.locator('[aria-sort="descending"]')).waitFor();
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: paymentId }) });
  await row.getByRole('link', { name: /^Open dispute / }).click();
  await page.getByRole('heading', { name: /^Dispute dp_/, level: 1 }).waitFor();
}

test('paid with the dispute card, the chargeback shows on the seller’s Disputes screen and in the back office; finance reverses it', async () => {
  const seller = await signUpSeller();
  const paymentId = await createPayment(web.service, seller.apiKey, { amount: 4000 });

  const customer = await customerPage(web.browser);
  await customer.page.goto(`${web.service.url}/checkout/${paymentId}`);
  // The simulated acquirer runs: the page says so before anything else.
  await customer.page.getByText('Test mode: no real card is charged.').waitFor();
  await check(customer.page, 'checkout-test-mode');
  await fillCard(customer.page, { number: '4000 0000 0000 0259' });
  await customer.page.getByRole('button', { name: /^Pay / }).click();
  await customer.page.waitForURL(/shop\.example\.test/);
  await customer.close();

  // The seller's Disputes screen: the chargeback, a moment after the payment completed.
  const disputes = seller.page;
  await disputes.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Disputes', exact: true }).click();
  const table = disputes.getByRole('table', { name: 'Disputes' });
  await reloadUntil(disputes, web.service, 'Disputes', async () => (await table.getByRole('row').filter({ hasText: paymentId }).filter({ hasText: 'Charged back' }).count()) === 1, 'the chargeback on the seller’s Disputes screen');
  const row = table.getByRole('row').filter({ hasText: paymentId });
  await row.getByText('Fraudulent: the cardholder does not recognise the payment').waitFor();
  await row.getByText(/Chargeback -\$40\.00/).waitFor();
  await check(disputes, 'seller-disputes-charged-back');

  // Support reads the dispute, and is not offered the simulator's button (finance's only).
  const support = await adminSignIn(AdminRole.SUPPORT);
  await openDispute(support.page, paymentId);
  await support.page.getByText('Charged back', { exact: true }).waitFor();
  expect(await support.page.getByRole('button', { name: 'Simulate the issuer reversing it' }).count()).toBe(0);

  const finance = await adminSignIn(AdminRole.FINANCE);
  await openDispute(finance.page, paymentId);
  await finance.page.getByRole('heading', { name: 'Test mode: the simulated acquirer', level: 2 }).waitFor();
  await check(finance.page, 'back-office-dispute-simulator');
  await finance.page.getByRole('button', { name: 'Simulate the issuer reversing it' }).click();
  const dialog = finance.page.getByRole('dialog', { name: 'Simulate the issuer reversing this chargeback?' });
  await dialog.waitFor();
  await check(finance.page, 'back-office-dispute-simulator-dialog');
  await dialog.getByRole('button', { name: 'Reverse the chargeback' }).click();
  await finance.page.getByRole('status').filter({ hasText: 'The simulated issuer reversed the chargeback: the dispute is reversed.' }).waitFor();
  await finance.page.getByText('Reversed', { exact: true }).waitFor();
  // Reversed: the button is gone, since the chargeback no longer stands.
  await finance.page.getByRole('heading', { name: 'Test mode: the simulated acquirer' }).waitFor({ state: 'detached' });

  await disputes.reload();
  await table.getByRole('row').filter({ hasText: paymentId }).filter({ hasText: 'Reversed' }).waitFor();
  await table.getByRole('row').filter({ hasText: paymentId }).getByText(/Chargeback reversed \$40\.00/).waitFor();
  expect([...seller.problems, ...support.problems, ...finance.problems]).toEqual([]);
}, 120_000);
