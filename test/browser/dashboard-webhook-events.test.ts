import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { eventually, graphql } from '../support/admin-client';
import { axeViolations, createPayment, customerPage, fillCard, useBrowser } from '../support/browser';
import { checkoutClient } from '../support/checkout-client';
import { STRONG_PASSWORD, newEmail } from '../support/dashboard-client';
import { useTestService } from '../support/test-service';
import { useReceiver } from '../support/webhook-receiver';

/**
 * The Developers screen's event choice and delivery log in Chromium (docs/dashboard.md, "Developers"): the seller ticks
 * the events the shop receives besides payment.completed, the choice is kept and takes effect (a declined payment's
 * payment.failed is sent while chosen, not after), and a test delivery shows in the log at once. Elements are found by
 * role and label; the screen is checked by axe at 375 and 1280 px, and saved when DEVELOPERS_SCREENSHOTS names a directory.
 */
const receiver = useReceiver();
const service = useTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1', RATE_LIMIT_PER_MINUTE: '10000' });
const browser = useBrowser();
const SCREENSHOTS = process.env.DEVELOPERS_SCREENSHOTS;

const summary = (violations: Awaited<ReturnType<typeof axeViolations>>) => violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);

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

async function declinedPayment(apiKey: string): Promise<string> {
  const paymentId = await createPayment(service, apiKey, { amount: 1500 });
  expect((await checkoutClient(service.url).pay(paymentId, '4000000000000002')).body.data.submitCard.status).toBe('FAILED');
  return paymentId;
}

test('the seller chooses the events on the Developers screen, the choice takes effect, and a test delivery shows in the log', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${service.url}/dashboard/signup`);
  await page.getByLabel('Email', { exact: true }).fill(newEmail());
  await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByLabel('Shop name').fill('Event Choice Books');
  await page.getByRole('button', { name: 'Create account' }).click();
  const apiKey = await page.getByLabel('API key').inputValue();
  await page.getByRole('link', { name: 'I have stored them: continue' }).click();
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Developers', exact: true }).click();
  await page.getByRole('heading', { name: 'Developers', level: 1 }).waitFor();
  const log = page.getByRole('region', { name: 'Delivery log' });
  await log.getByText('No deliveries yet.').waitFor();

  await page.getByLabel('Webhook URL').fill(receiver.url);
  await page.getByRole('button', { name: 'Save webhook URL' }).click();
  const reauth = page.getByRole('dialog', { name: 'Confirm it is you' });
  await reauth.getByLabel('Current password').fill(STRONG_PASSWORD);
  await reauth.getByRole('button', { name: 'Confirm' }).click();
  await page.getByText('Webhook URL saved.').waitFor();

  // payment.completed is always sent: shown ticked, not to be unticked. The others start unticked.
  const events = page.getByRole('group', { name: 'Events sent to your receiver' });
  const completed = events.getByRole('checkbox', { name: /^payment\.completed/ });
  expect([await completed.isChecked(), await completed.isDisabled()]).toEqual([true, true]);
  for (const name of ['payment.failed', 'payment.refunded', 'refund.failed', 'withdrawal.paid', 'withdrawal.rejected']) {
    expect([name, await events.getByRole('checkbox', { name: new RegExp(`^${name.replace('.', '\\.')}:`) }).isChecked()]).toEqual([name, false]);
  }
  await events.getByRole('checkbox', { name: /^payment\.failed:/ }).check();
  await events.getByRole('checkbox', { name: /^refund\.failed:/ }).check();
  await page.getByRole('button', { name: 'Save events' }).click();
  await page.getByText('Events saved: payment.completed and payment.failed, refund.failed are sent.').waitFor();
  // Kept: the API says so, and the screen shows it after a reload.
  const chosen = await graphql(service.url, `Bearer ${apiKey}`, '{ currentShop { webhookEvents } }');
  expect(chosen.data.currentShop.webhookEvents).toEqual(['payment.failed', 'refund.failed']);
  await page.reload();
  await page.getByRole('heading', { name: 'Developers', level: 1 }).waitFor();
  expect(await events.getByRole('checkbox', { name: /^payment\.failed:/ }).isChecked()).toBe(true);
  expect(await events.getByRole('checkbox', { name: /^payment\.refunded:/ }).isChecked()).toBe(false);

  // A test delivery: its answer on the screen, and the log shows it at once, without a reload.
  await page.getByRole('button', { name: 'Send test delivery' }).click();
  await page.getByRole('region', { name: 'Webhooks' }).getByText('HTTP 200: ok').waitFor();
  const testRow = log.getByRole('row').filter({ hasText: 'payment.completed (test)' });
  await testRow.getByRole('cell', { name: 'Delivered' }).waitFor();
  expect(await log.getByText('No deliveries yet.').count()).toBe(0);
  await check(page, 'developers-events');

  // Chosen, payment.failed is sent for a declined payment; unticked, it is not.
  const failedFirst = await declinedPayment(apiKey);
  await eventually(async () => receiver.received.some((r) => r.body.event === 'payment.failed' && r.body.payment.id === failedFirst), 30_000, 'payment.failed while chosen');
  await events.getByRole('checkbox', { name: /^payment\.failed:/ }).uncheck();
  await page.getByRole('button', { name: 'Save events' }).click();
  await page.getByText('Events saved: payment.completed and refund.failed are sent.').waitFor();
  const failedLater = await declinedPayment(apiKey);
  const paid = await createPayment(service, apiKey, { amount: 1600 });
  const customer = await customerPage(browser);
  await customer.page.goto(`${service.url}/checkout/${paid}`);
  await fillCard(customer.page, { number: '4242 4242 4242 4242' });
  await customer.page.getByRole('button', { name: /^Pay / }).click();
  await customer.page.waitForURL(/shop\.example\.test/);
  await customer.close();
  // Deliveries go in the order written: once the later payment's completion is in, the failure before it would be too.
  await eventually(async () => receiver.received.some((r) => r.body.event === 'payment.completed' && r.body.payment.id === paid), 30_000, 'the later payment.completed');
  expect(receiver.received.filter((r) => r.body.payment?.id === failedLater)).toEqual([]);
  expect(problems).toEqual([]);
  await context.close();
}, 120_000);
