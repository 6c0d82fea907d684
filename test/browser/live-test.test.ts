import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { LedgerEntry } from '../../src/modules/ledger/ledger-entry.entity';
import { Payment } from '../../src/modules/payments/payment.entity';
import { eventually, graphql } from '../support/admin-client';
import { axeViolations, fillCard, useBrowserService } from '../support/browser';
import { dashboard, signUpSeller, STRONG_PASSWORD } from '../support/dashboard-client';
import { startReceiver, type Receiver } from '../support/webhook-receiver';

/**
 * A live test in real Chromium (docs/dashboard.md, "Live test"): a seller signs in, runs a live test from the
 * Developers screen, pays it on the real checkout page with a simulator test card, is back on the Developers
 * screen, and the webhook with "test": true reaches a real local receiver, then the automatic refund; the
 * balance is as it was. Screens are saved under LIVE_TEST_SCREENSHOTS (a directory) to be looked at.
 */
const web = useBrowserService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1' });
/** The service's public address in these tests (BASE_URL): the browser's requests to it go to the test service. */
const PUBLIC_ORIGIN = 'https://pay.example.test';
const SCREENSHOTS = process.env.LIVE_TEST_SCREENSHOTS;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.close());

async function shoot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

const availableOf = async (session: Parameters<typeof dashboard>[3]) => (await dashboard(web.service.url, 'Overview', { days: 1 }, session)).body.data.balance.available;

test('a seller signs in, runs a live test, pays it on the checkout page, and sees it refunded automatically: webhook with "test": true, balance unchanged', async () => {
  const { service, page } = web;
  // The seller's account and integration: a webhook URL on the receiver, refund events chosen with the key.
  const seller = await signUpSeller(service.url);
  await dashboard(service.url, 'SetWebhookUrl', { url: receiver.url, currentPassword: STRONG_PASSWORD }, seller.session);
  expect((await graphql(service.url, `Bearer ${seller.apiKey}`, 'mutation { setWebhookEvents(events: ["payment.refunded"]) { id } }')).errors).toBeUndefined();
  const before = await availableOf(seller.session);
  // Links to BASE_URL (the checkout page, the way back from it) lead to the test service.
  await page.context().route(`${PUBLIC_ORIGIN}/**`, (route) => route.fulfill({ status: 302, headers: { location: route.request().url().replace(PUBLIC_ORIGIN, service.url) } }));

  await page.goto(`${service.url}/dashboard/login`);
  await page.getByLabel('Email', { exact: true }).fill(seller.email);
  await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Developers', exact: true }).click();

  const section = page.getByRole('region', { name: 'Live test' });
  await section.getByText('5 of 5 live tests left today (UTC).').waitFor();
  await section.getByRole('button', { name: 'Run a live test' }).click();
  await section.getByRole('status').filter({ hasText: 'Live test created' }).waitFor();
  await section.getByText('4 of 5 live tests left today (UTC).').waitFor();
  await shoot(page, 'developers-live-test');
  expect(await axeViolations(page)).toEqual([]);

  await section.getByRole('link', { name: 'Pay the 50-cent live test' }).click();
  await page.getByRole('button', { name: 'Pay $0.50' }).waitFor();
  const paymentId = new URL(page.url()).pathname.split('/').pop()!;
  expect(await service.em().findOneOrFail(Payment, { id: paymentId })).toMatchObject({ amount: 50, test: true });
  await fillCard(page, { number: '4242 4242 4242 4242' });
  await shoot(page, 'checkout-live-test');
  await page.getByRole('button', { name: 'Pay $0.50' }).click();
  // Back where the seller started: the Developers screen of the dashboard, still signed in.
  await page.waitForURL(`${service.url}/dashboard/developers**`);
  await page.getByRole('heading', { name: 'Developers', level: 1 }).waitFor();

  // The seller's endpoint hears of the payment, then of its refund, both marked as a test.
  const bodies = (await receiver.waitFor(2)).map((r) => r.body as unknown as { event: string; test?: boolean; payment: { id: string; status: string }; refund?: { amount: number } });
  bodies.sort((a, b) => a.event.localeCompare(b.event));
  expect(bodies.map((b) => [b.event, b.test, b.payment.id])).toEqual([['payment.completed', true, paymentId], ['payment.refunded', true, paymentId]]);
  expect(bodies[1]).toMatchObject({ payment: { status: 'refunded' }, refund: { amount: 50 } });

  // The dashboard shows it as a test, refunded, no fee; the balance is what it was before.
  await eventually(async () => (await service.em().findOneOrFail(Payment, { id: paymentId }, { refresh: true })).status === 'refunded', 30_000, 'the automatic refund');
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Payments', exact: true }).click();
  const row = page.getByRole('row').filter({ hasText: paymentId });
  await row.getByText('Test', { exact: true }).waitFor();
  await row.getByText('Refunded', { exact: true }).waitFor();
  await shoot(page, 'payments-test-badge');
  await row.getByRole('link', { name: paymentId }).click();
  await page.getByText(/A live test from the Developers screen/).waitFor();
  await page.getByText('Live test: refunded automatically, fee waived', { exact: false }).first().waitFor();
  await shoot(page, 'payment-live-test');
  expect(await page.getByRole('definition').filter({ hasText: /^\$0\.00$/ }).count()).toBeGreaterThan(0);
  expect(await availableOf(seller.session)).toBe(before);
  expect((await service.em().find(LedgerEntry, { paymentId })).some((e) => e.kind === 'fee')).toBe(false);
  expect(web.customer.problems).toEqual([]);
});
