import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { axeViolations, useBrowserService } from '../support/browser';

/**
 * /api/v1/docs as a person reads it: rendered from the OpenAPI document by our own script, under its CSP; a sidebar of
 * the operations (beside the text on wide screens, a menu at 375 px); request samples that run as written.
 */

/** A directory: the page at 1280 and 375 px is saved there to be looked at. */
const SCREENSHOTS = process.env.API_REFERENCE_SCREENSHOTS;

let page: Page;
const web = useBrowserService({}, { customerPage: false });
const problems: string[] = [];
const origins = new Set<string>();

/** The document's first server, which the samples call: the service's BASE_URL. */
const DOCUMENT_SERVER = 'https://pay.example.test/api/v1';

beforeAll(async () => {
  page = await web.browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('request', (req) => origins.add(new URL(req.url()).origin));
  await open(page);
});

async function open(target: Page, hash = ''): Promise<void> {
  await target.goto(`${web.service.url}/api/v1/docs${hash}`);
  await target.getByRole('heading', { level: 1, name: 'Hosted-checkout payments API' }).waitFor();
}

const contents = (target: Page) => target.getByRole('navigation', { name: 'Contents' });

async function screenshot(target: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await target.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/** Where an element is against the window: [top, bottom, window height]. */
const placement = (locator: Locator) => locator.evaluate((node) => [node.getBoundingClientRect().top, node.getBoundingClientRect().bottom, window.innerHeight]);

const violations = async (target: Page) => (await axeViolations(target)).map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);

test('the page renders every endpoint from the document, with no script error or CSP refusal, from our origin only', async () => {
  for (const name of ['POST Create a payment', 'GET List payments', 'GET Retrieve a payment', 'GET Check an API key', 'GET Stream the shop\'s events']) {
    await contents(page).getByRole('link', { name, exact: true }).waitFor();
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

describe('the sidebar', () => {
  test('at 1280 px: links grouped as the document tags them; one followed brings its heading into view, the sidebar staying beside it', async () => {
    await open(page);
    const nav = contents(page);
    expect(await nav.getByRole('button', { name: 'Contents' }).isVisible()).toBe(false);
    const payments = nav.getByRole('list', { name: 'Payments' });
    expect(await payments.getByRole('link').allInnerTexts()).toEqual(['POST Create a payment', 'GET List payments', 'GET Retrieve a payment']);
    expect(await nav.getByRole('list', { name: 'Events' }).getByRole('link').allInnerTexts()).toEqual(['GET Stream the shop\'s events']);
    await screenshot(page, 'reference-1280');
    expect(await violations(page)).toEqual([]);

    await nav.getByRole('link', { name: 'GET Retrieve a payment' }).click();
    expect(new URL(page.url()).hash).toBe('#op-retrievePayment');
    const heading = page.getByRole('heading', { level: 3, name: /Retrieve a payment/ });
    await page.waitForFunction(() => Math.abs(document.querySelector('#op-retrievePayment')!.getBoundingClientRect().top) < 40);
    const [top, , height] = await placement(heading);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(height / 2);
    // Sticky: the sidebar is still in the window, its link marked as the current part.
    const [navTop] = await placement(nav);
    expect(navTop).toBe(0);
    expect(await nav.getByRole('link', { name: 'GET Retrieve a payment' }).getAttribute('aria-current')).toBe('location');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'reference-1280-retrieve');
  }, 90_000);

  test('at 375 px: a menu button opens the list; a link closes it and its heading shows below the menu bar; nothing scrolls sideways', async () => {
    const narrow = await web.browser.newPage({ viewport: { width: 375, height: 740 } });
    try {
      await open(narrow);
      const nav = contents(narrow);
      const toggle = nav.getByRole('button', { name: 'Contents' });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await nav.getByRole('link').count()).toBe(0);
      expect(await narrow.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(await violations(narrow)).toEqual([]);
      await screenshot(narrow, 'reference-375');

      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await screenshot(narrow, 'reference-375-menu');
      expect(await violations(narrow)).toEqual([]);
      await nav.getByRole('link', { name: 'POST Create a payment' }).click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      const heading = narrow.getByRole('heading', { level: 3, name: /Create a payment/ });
      await narrow.waitForFunction(() => document.querySelector('#op-createPayment')!.getBoundingClientRect().top < 200);
      const [top, , height] = await placement(heading);
      const [, navBottom] = await placement(nav);
      expect(top).toBeGreaterThanOrEqual(navBottom);
      expect(top).toBeLessThan(height / 2);
      // The samples and tables scroll inside themselves; the page does not.
      expect(await narrow.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await screenshot(narrow, 'reference-375-create');
      expect(await violations(narrow)).toEqual([]);
    } finally {
      await narrow.close();
    }
  }, 120_000);
});

describe('request samples', () => {
  let apiKey: string;
  beforeAll(async () => {
    apiKey = (await web.service.createShop()).apiKey;
    await open(page);
  });

  /** An operation's sample as shown, and as run here: against this service rather than the document's server. */
  async function sampleOf(operationId: string, caption: 'curl' | 'Node 20 (fetch)'): Promise<{ shown: string; runnable: string }> {
    const shown = await page.locator(`#op-${operationId}`).getByRole('figure', { name: caption }).locator('pre').innerText();
    expect(shown).toContain(DOCUMENT_SERVER);
    return { shown, runnable: shown.split(DOCUMENT_SERVER).join(`${web.service.url}/api/v1`) };
  }

  const env = () => ({ ...process.env, API_KEY: apiKey, NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost' });

  /** Runs a program to its end without blocking this process, which serves the requests it makes. */
  function run(file: string, args: string[]): Promise<{ stdout: string; stderr: string; code: number | null }> {
    return new Promise((resolve) => {
      execFile(file, args, { env: env(), encoding: 'utf8', timeout: 15_000 }, (error, stdout, stderr) => {
        resolve({ stdout, stderr, code: error ? ((error as { code?: number }).code ?? null) : 0 });
      });
    });
  }

  /** The curl sample run by a shell, as a developer pastes it; the answer's envelope. */
  async function runCurl(sample: string): Promise<Record<string, any>> {
    const { stdout, stderr, code } = await run('bash', ['-c', `${sample} --silent --show-error`]);
    expect({ stderr, code }).toEqual({ stderr: '', code: 0 });
    return JSON.parse(stdout);
  }

  /** The Node sample run as a module by this Node; its printed status and envelope. */
  async function runNode(sample: string): Promise<{ status: number; body: Record<string, any> }> {
    const { stdout, stderr, code } = await run(process.execPath, ['--input-type=module', '-e', sample]);
    expect({ stderr, code }).toEqual({ stderr: '', code: 0 });
    const [, status, json] = /^(\d{3}) ([\s\S]*)$/.exec(stdout.trim())!;
    return { status: Number(status), body: JSON.parse(json) };
  }

  test('create: the API key, the Idempotency-Key and the body example; curl creates, the Node sample replays it', async () => {
    const curl = await sampleOf('createPayment', 'curl');
    expect(curl.shown).toBe(
      `curl '${DOCUMENT_SERVER}/payments' \\\n  -H "Authorization: Bearer $API_KEY" \\\n  -H 'Content-Type: application/json' \\\n  -H 'Idempotency-Key: order-42' \\\n` +
        `  -d '{\n    "amount": 50,\n    "currency": "usd",\n    "return_url": "https://shop.example.com/thanks"\n  }'`,
    );
    const node = await sampleOf('createPayment', 'Node 20 (fetch)');
    expect(node.shown).toContain("method: 'POST'");
    expect(node.shown).toContain('Authorization: `Bearer ${process.env.API_KEY}`');
    expect(node.shown).toContain("'Idempotency-Key': 'order-42'");

    const created = await runCurl(curl.runnable);
    expect(created).toMatchObject({ success: true, data: { amount: 50, currency: 'usd', status: 'pending' } });
    const replayed = await runNode(node.runnable);
    expect(replayed).toEqual({ status: 200, body: created });
  });

  test('retrieve and list: the example id (here a real one in its place) and the query parameters with defaults', async () => {
    const id = (await runCurl((await sampleOf('createPayment', 'curl')).runnable)).data.id as string;
    for (const caption of ['curl', 'Node 20 (fetch)'] as const) {
      const retrieve = await sampleOf('retrievePayment', caption);
      expect(retrieve.shown).toContain(`${DOCUMENT_SERVER}/payments/pay_3kTMd2mXq8uV0aRbWc5pLs7e`);
      const runnable = retrieve.runnable.replace('pay_3kTMd2mXq8uV0aRbWc5pLs7e', id);
      const answer = caption === 'curl' ? await runCurl(runnable) : (await runNode(runnable)).body;
      expect(answer).toMatchObject({ success: true, data: { id, status: 'pending', completed_at: null } });

      const list = await sampleOf('listPayments', caption);
      expect(list.shown).toContain(`${DOCUMENT_SERVER}/payments?page=1&limit=10`);
      const page1 = caption === 'curl' ? await runCurl(list.runnable) : (await runNode(list.runnable)).body;
      expect(page1).toMatchObject({ success: true, pagination: { page: 1, limit: 10 } });
      expect(page1.data.map((p: { id: string }) => p.id)).toContain(id);
    }
  });

  test('the key check and the document itself (public: no key sent)', async () => {
    expect(await runCurl((await sampleOf('testApiKey', 'curl')).runnable)).toMatchObject({ success: true, data: { authenticated: true } });
    expect((await runNode((await sampleOf('testApiKey', 'Node 20 (fetch)')).runnable)).body).toMatchObject({ success: true, data: { authenticated: true } });
    const documentSample = await sampleOf('openApiDocument', 'curl');
    expect(documentSample.shown).toBe(`curl '${DOCUMENT_SERVER}/openapi.json'`);
    expect(await runCurl(documentSample.runnable)).toMatchObject({ openapi: '3.1.0' });
  });

  test('the event stream: curl unbuffered; the Node sample prints the ready message as it comes', async () => {
    expect((await sampleOf('streamShopEvents', 'curl')).shown).toBe(
      `curl -N '${DOCUMENT_SERVER}/events/stream' \\\n  -H "Authorization: Bearer $API_KEY" \\\n  -H 'Accept: text/event-stream'`,
    );
    const { runnable } = await sampleOf('streamShopEvents', 'Node 20 (fetch)');
    const child = spawn(process.execPath, ['--input-type=module', '-e', runnable], { env: env() });
    try {
      const printed = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no ready message in 10 s: ${out}`)), 10_000);
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('event: ready')) {
            clearTimeout(timer);
            resolve(out);
          }
        });
        child.on('exit', (code) => reject(new Error(`the sample exited (${code}): ${out}`)));
      });
      expect(printed).toMatch(/^retry: \d+\nid: \S+\nevent: ready\ndata: \{\}/);
    } finally {
      child.kill();
    }
  });
});
