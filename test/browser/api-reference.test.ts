import type { Page } from 'playwright-core';
import { useBrowserService } from '../support/browser';

/** /api/v1/docs as a person reads it: rendered from the OpenAPI document by our own script, under its CSP. */

let page: Page;
// Registered before the fixture, so it runs before the fixture closes the browser.
afterAll(async () => {
  if (process.env.API_REFERENCE_SCREENSHOT) await page?.screenshot({ path: process.env.API_REFERENCE_SCREENSHOT, fullPage: true });
});
const web = useBrowserService({}, { customerPage: false });
const problems: string[] = [];
const origins = new Set<string>();

beforeAll(async () => {
  page = await web.browser.newPage({ viewport: { width: 1024, height: 800 } });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('request', (req) => origins.add(new URL(req.url()).origin));
  await page.goto(`${web.service.url}/api/v1/docs`);
  await page.getByRole('heading', { level: 1, name: 'Hosted-checkout payments API' }).waitFor({ timeout: 10_000 });
});

test('the page renders every endpoint from the document, with no script error or CSP refusal, from our origin only', async () => {
  for (const name of ['POST /payments', 'GET /payments', 'GET /payments/{id}', 'GET /payments/test']) {
    await page.getByRole('navigation', { name: 'Endpoints' }).getByRole('link', { name, exact: true }).waitFor();
  }
  expect(await page.getByRole('heading', { level: 3 }).filter({ hasText: 'Create a payment' }).count()).toBe(1);
  expect(problems).toEqual([]);
  expect([...origins]).toEqual([web.service.url]);
});

test('the create section lists the body rules and every error message with its status', async () => {
  const create = page.locator('#op-createPayment');
  await create.getByRole('cell', { name: 'amount required' }).first().waitFor();
  const text = await create.innerText();
  for (const expected of ['≥ 50', 'max length 2048', 'at most 50 keys', 'Amount must be at least 50 cents', 'Request body cannot exceed 64KB',
    'Idempotency-Key was already used with different parameters: amount, metadata', 'X-RateLimit-Reset', 'Idempotent-Replayed']) {
    expect(text).toContain(expected);
  }
  for (const status of ['200', '400', '401', '403', '409', '413', '415', '422', '429', '500', '503']) {
    expect(await create.locator('.status', { hasText: new RegExp(`^${status}\\s*$`) }).count()).toBe(1);
  }
});

test('a link to a schema leads to its section', async () => {
  await page.locator('#op-retrievePayment').getByRole('link', { name: 'PaymentResponse' }).first().click();
  expect(new URL(page.url()).hash).toBe('#schema-PaymentResponse');
  await page.locator('#schema-PaymentWithCompletion').getByText('completed_at').first().waitFor();
});
