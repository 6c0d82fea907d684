import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { axeViolations, useBrowser } from '../support/browser';
import { STRONG_PASSWORD, newEmail } from '../support/dashboard-client';
import { sellerClient, VALID_PAYMENT } from '../support/seller-client';
import { useTestService } from '../support/test-service';

/**
 * The Logs screen (docs/dashboard.md, "Request log") in Chromium: the requests the shop's key made, with their answers,
 * filtered by outcome, text and day; another seller's requests and the dashboard's own never there; axe-core clean and
 * no sideways scroll at 375 px and 1280 px.
 */
jest.setTimeout(120_000);
const SHOTS = process.env.DASHBOARD_SCREENSHOTS;
const service = useTestService({ RATE_LIMIT_PER_MINUTE: '10000', AUTH_FAILURES_PER_MINUTE: '10000' });
const browser = useBrowser();

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

async function signUp(page: Page, shopName: string): Promise<string> {
  await page.goto(`${service.url}/dashboard/signup`);
  await page.getByLabel('Email', { exact: true }).fill(newEmail());
  await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByLabel('Shop name').fill(shopName);
  await page.getByRole('button', { name: 'Create account' }).click();
  const apiKey = await page.getByLabel('API key').inputValue();
  await page.getByRole('link', { name: 'I have stored them: continue' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  return apiKey;
}

const rows = (page: Page) => page.getByRole('region', { name: 'API requests' }).locator('tbody tr');

/** Opens the screen at `query` until it shows `count` requests (entries are written a moment after each answer). */
async function logsShowing(page: Page, query: string, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await page.goto(`${service.url}/dashboard/logs${query}`);
    await page.getByText('Loading…').waitFor({ state: 'detached' });
    const title = await page.locator('h1').first().textContent();
    if (title !== 'Logs') throw new Error(`the screen showed "${title}": ${await page.locator('main').textContent()}`);
    if ((await rows(page).count()) >= count || Date.now() > deadline) return;
    await page.waitForTimeout(200);
  }
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

test("the shop's API requests with their answers, filtered; never another seller's or the dashboard's own; readable and axe-clean at 375 px and 1280 px", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  try {
    const apiKey = await signUp(page, 'Harbour Books');
    const seller = sellerClient(service.url, apiKey);
    const created = await seller.create(VALID_PAYMENT, { 'Idempotency-Key': 'order-1001' });
    const paymentId = created.body.data.id as string;
    await seller.retrieve(paymentId);
    await seller.retrieve('pay_000000000000000000000000');
    await seller.list('?limit=500');
    await request(service.url).post('/graphql').set('Authorization', `Bearer ${apiKey}`).send({ query: 'query Balance { balance { available } }', operationName: 'Balance' });
    // Another seller's requests, through its own key.
    const other = await service.createShop({ shopName: 'Elsewhere' });
    await sellerClient(service.url, other.apiKey).retrieve('pay_111111111111111111111111');

    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Logs', exact: true }).click();
    await page.getByRole('heading', { name: 'Logs', level: 1 }).waitFor();
    await logsShowing(page, '', 5);
    const table = page.getByRole('region', { name: 'API requests' });
    expect(await rows(page).count()).toBe(5);
    const notFound = rows(page).filter({ hasText: 'pay_000000000000000000000000' });
    await notFound.getByText('PAYMENT_NOT_FOUND').waitFor();
    await notFound.getByText('Payment not found').waitFor();
    expect(await notFound.getByText('404').count()).toBe(1);
    await rows(page).filter({ hasText: 'LIMIT_INVALID' }).getByText('limit must be an integer from 1 to 100').waitFor();
    await rows(page).filter({ hasText: 'Idempotency-Key order-1001' }).getByText('200').waitFor();
    await rows(page).filter({ hasText: '/graphql' }).getByText('Balance').waitFor();
    expect(await table.textContent()).not.toContain('pay_111111111111111111111111');
    expect(await table.textContent()).not.toContain('RequestLog'); // the dashboard's own queries are not API requests
    expect(await table.textContent()).not.toContain(apiKey);
    expect(await axeViolations(page)).toEqual([]);
    await noSidewaysScroll(page);
    await shoot(page, 'logs-1280');

    // Failed only, from the form: the choice lands in the address.
    await page.getByLabel('Status').selectOption('FAILED');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/outcome=FAILED/);
    await page.getByText('Loading…').waitFor({ state: 'detached' });
    expect(await rows(page).count()).toBe(2);
    expect((await rows(page).locator('td[data-label="Status"]').allTextContents()).sort()).toEqual(['400', '404']);

    // A payment id finds the requests whose path names it; a day with none says so.
    await logsShowing(page, `?q=${paymentId}`, 1);
    expect(await rows(page).count()).toBe(1);
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    await page.goto(`${service.url}/dashboard/logs?from=${tomorrow}`);
    await page.getByText('No request matches these filters.').waitFor();

    // 375 px: each request a card, nothing cut off, nothing to scroll sideways.
    await page.setViewportSize({ width: 375, height: 800 });
    await logsShowing(page, '', 5);
    await noSidewaysScroll(page);
    const box = await rows(page).first().boundingBox();
    expect(box!.width).toBeLessThanOrEqual(375);
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, 'logs-375');
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
});

test("From and To are whole days of the browser's own zone, whatever UTC's date is", async () => {
  // A zone whose date is not UTC's now, at the hour furthest from its midnight (Etc/GMT-N is UTC+N): a screen that
  // counted days in UTC would find nothing on this zone's today.
  const now = Date.now();
  const utcDate = new Date(now).toISOString().slice(0, 10);
  const zones = Array.from({ length: 27 }, (_, i) => i - 12).map((hoursAhead) => {
    const there = new Date(now + hoursAhead * 3_600_000);
    const hour = there.getUTCHours() + there.getUTCMinutes() / 60;
    return { hoursAhead, otherDate: there.toISOString().slice(0, 10) !== utcDate, fromMidnight: Math.min(hour, 24 - hour) };
  });
  const { hoursAhead } = zones.filter((z) => z.otherDate).sort((a, b) => b.fromMidnight - a.fromMidnight)[0];
  const timezoneId = `Etc/GMT${hoursAhead > 0 ? '-' : '+'}${Math.abs(hoursAhead)}`;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId });
  const page = await context.newPage();
  try {
    const seller = sellerClient(service.url, await signUp(page, 'Zone Books'));
    await seller.retrieve('pay_000000000000000000000000');
    const day = (offsetDays: number) => new Intl.DateTimeFormat('en-CA', { timeZone: timezoneId }).format(Date.now() + offsetDays * 86_400_000);
    await logsShowing(page, `?from=${day(0)}&to=${day(0)}`, 1);
    expect(await rows(page).count()).toBe(1);
    await shoot(page, 'logs-one-day');
    await page.goto(`${service.url}/dashboard/logs?to=${day(-1)}`);
    await page.getByText('No request matches these filters.').waitFor();
    await page.goto(`${service.url}/dashboard/logs?from=${day(1)}`);
    await page.getByText('No request matches these filters.').waitFor();
    // An address edited by hand filters nothing rather than breaking the screen.
    await logsShowing(page, '?from=yesterday&to=2026-02-30', 1);
    expect(await rows(page).count()).toBe(1);
  } finally {
    await context.close();
  }
});
