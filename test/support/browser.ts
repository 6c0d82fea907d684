/*
 * Browser tests: one fixture and the helpers around it.
 *
 * Every suite of test/browser/ starts the same way: a real service and a headless Chromium for the whole file,
 * and (for pages a customer sees) a fresh browser context per test. `useBrowserService` does that once:
 *
 *     const web = useBrowserService({ SIMULATED_ACQUIRER_DELAY_MS: '1000' }); // env for startTestService
 *     beforeAll(async () => { apiKey = (await web.service.createShop()).apiKey; }); // runs after the fixture's
 *     test('…', async () => { await web.page.goto(`${web.service.url}/checkout/${id}`); });
 *
 * It registers the jest hooks itself (through suite-fixture.ts): call it at the top level of the file, before
 * your own hooks. It returns getters, read inside hooks and tests, never at the top level:
 *   - `web.service`: the running TestService (test-service.ts), started with `env`;
 *   - `web.browser`: the Chromium, for a suite that opens its own contexts (admin-console.test.ts);
 *   - `web.customer` and `web.page`: this test's fresh CustomerPage and its page (Playwright's 30 s step timeout: a step waits out a loaded machine),
 *     closed after the test. Pass `{ customerPage: false }` when the suite opens pages itself.
 * The service and Chromium are closed after the file. Jest runs after-hooks in the order they were registered,
 * so the fixture's run before yours: a hook that still needs the page or service at the end (a screenshot) is
 * registered before the call (api-reference.test.ts). Find elements by role and label, as a person does.
 */
import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page, type Request } from 'playwright-core';
import { eventually } from './admin-client';
import { sellerClient } from './seller-client';
import { suiteFixture } from './suite-fixture';
import { lastLoggedErrors, SERVICE_START_TIMEOUT_MS, startTestService, type TestService } from './test-service';
import { createEmptyDatabase, dropDatabase } from './databases';

/** Debian's Chromium (playwright's own download cannot work here; .ci/run installs it when missing). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * What Playwright turns off in Chromium (chromium-launch.test.ts checks this list still holds all of it). Chromium keeps
 * only the last --disable-features switch and Playwright passes its own first, so ours repeats Playwright's.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades', 'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay', 'MediaRouter', 'PaintHolding', 'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin', 'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch',
  'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion',
];
/**
 * Headless Chromium gives every window (each browser context) the omnibox pop-up, a WebUI preloaded in a renderer of
 * its own: about 0.2 s of CPU per context, for a pop-up no test opens.
 */
const DISABLED_FEATURES = [...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      `--disable-features=${DISABLED_FEATURES.join(',')}`,
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A Chromium for the file or the enclosing `describe`, for a suite whose service is started on other fixtures (an SMTP sink, the Adyen stand-in). */
export function useBrowser(): Browser {
  return suiteFixture('useBrowser', launchBrowser, (browser) => browser.close(), 60_000);
}

export interface BrowserService {
  readonly service: TestService;
  readonly browser: Browser;
  /** This test's customer page (not with `customerPage: false`). */
  readonly customer: CustomerPage;
  readonly page: Page;
}

/** The service and Chromium of a browser suite, and a fresh customer page per test (see the file's header). */
export function useBrowserService(env: Record<string, string> = {}, options: { customerPage?: boolean; ownDatabase?: boolean } = {}): BrowserService {
  const suite = suiteFixture(
    'useBrowserService',
    async () => {
      // A suite that reads whole queues (counts, orderings) gets a database of its own: the run's is shared.
      const database = options.ownDatabase ? await createEmptyDatabase('payments_browser') : null;
      const [service, browser] = await Promise.all([startTestService({ ...env, ...(database ? { DATABASE_URL: database.url } : {}) }), launchBrowser()]);
      return { service, browser, database };
    },
    async ({ service, browser, database }) => {
      await browser.close();
      await service.stop();
      if (database) await dropDatabase(database.name);
    },
    SERVICE_START_TIMEOUT_MS ?? 60_000,
  );
  let customer: CustomerPage | undefined;
  if (options.customerPage ?? true) {
    beforeEach(async () => {
      customer = await customerPage(suite.browser);
    });
    afterEach(async () => {
      await customer?.close();
      customer = undefined;
    });
  }
  const current = (): CustomerPage => {
    if (!customer) throw new Error('useBrowserService: the customer page is read outside a test, or with customerPage: false');
    return customer;
  };
  return {
    get service() {
      return suite.service;
    },
    get browser() {
      return suite.browser;
    },
    get customer() {
      return current();
    },
    get page() {
      return current().page;
    },
  };
}

/** The seller's shop the customer returns to: intercepted, never reached. */
export const SHOP_ORIGIN = 'https://shop.example.test';
export const RETURN_URL = `${SHOP_ORIGIN}/return?order=42`;

export const CARD_EXPIRY = `12/${String((new Date().getFullYear() + 3) % 100).padStart(2, '0')}`;

export interface CustomerPage {
  context: BrowserContext;
  page: Page;
  /** Every request the page made, in order. */
  requests: Request[];
  /** Console errors and uncaught exceptions (a CSP refusal shows here too). */
  problems: string[];
  /** The /graphql requests, with their operation names. */
  graphqlOperations(): string[];
  close(): Promise<void>;
}

/**
 * A fresh browser context (no shared cookies or cache) whose navigations to the seller's shop are
 * answered with a tiny page, so the redirect back can be asserted without leaving the machine.
 */
export async function customerPage(browser: Browser, options: BrowserContextOptions = {}): Promise<CustomerPage> {
  const context = await browser.newContext({ viewport: { width: 1024, height: 800 }, ...options });
  await context.route(`${SHOP_ORIGIN}/**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Shop</title><h1>Back at the shop</h1>' }),
  );
  const page = await context.newPage();
  const requests: Request[] = [];
  const problems: string[] = [];
  page.on('request', (request) => requests.push(request));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return {
    context,
    page,
    requests,
    problems,
    graphqlOperations: () =>
      requests
        .filter((r) => new URL(r.url()).pathname === '/graphql')
        .map((r) => (JSON.parse(r.postData() ?? '{}') as { operationName?: string }).operationName ?? '?'),
    close: () => context.close(),
  };
}

/** A pending payment of the given shop, created over REST as the seller would. */
export async function createPayment(service: TestService, apiKey: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await sellerClient(service.url, apiKey).create({ amount: 1234, currency: 'usd', return_url: RETURN_URL, ...body });
  if (res.status !== 200) throw new Error(`create payment answered ${res.status}: ${res.text}`);
  return res.body.data.id as string;
}

/** Fills the card form the way a person does: finds each field by its label. */
export async function fillCard(page: Page, card: { number: string; expiry?: string; securityCode?: string; name?: string }): Promise<void> {
  await page.getByLabel('Card number').fill(card.number);
  await page.getByLabel('Expiry date').fill(card.expiry ?? CARD_EXPIRY);
  await page.getByLabel('Security code').fill(card.securityCode ?? '123');
  if (card.name !== undefined) await page.getByLabel('Name on card').fill(card.name);
}

/** The text of the page's main region on one line: what a failed wait says the page showed. */
const mainText = async (page: Page) => (await page.locator('main').innerText()).replace(/\s+/g, ' ');

/**
 * A second between reloads, as a person reloads: each reload runs the screen's queries, which count against the
 * seller's GraphQL cost budget per minute, and reloading as fast as the page loads spends it in half a minute.
 */
const RELOAD_INTERVAL_MS = 1000;

/**
 * Reloads `page` until its screen titled `title` shows and `ready` says what the test waits for is there, as a person
 * waiting for something would. A screen shown instead (one that could not be shown, a sign-in, still loading after
 * 10 s) is reloaded too, but remembered with the service's last error lines: a wait that times out says what it saw
 * and what the page showed last, and one that got there after it says so on the console.
 */
export async function reloadUntil(page: Page, service: TestService, title: string, ready: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const seen = new Set<string>();
  await eventually(async () => {
    await page.reload();
    const heading = page.getByRole('heading', { level: 1 });
    const shown = await heading.waitFor({ timeout: 10_000 }).then(() => heading.textContent(), () => null);
    if (shown === title) return ready();
    seen.add([`instead of ${title}, the page showed: ${await mainText(page)}`, ...lastLoggedErrors(service)].join('\n'));
    return false;
  }, timeoutMs, what, RELOAD_INTERVAL_MS).catch(async (error: Error) => {
    throw new Error([error.message, ...seen, `the page last showed: ${await mainText(page)}`].join('\n'));
  });
  if (seen.size > 0) console.warn(`Reloaded until ${what}:\n${[...seen].join('\n')}`);
}

/** axe-core's source, evaluated in the page (the page's CSP forbids injected script tags). */
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core'), 'utf8');
export const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Runs axe-core against the page once no region of it is busy, and answers its WCAG 2.2 AA violations. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // A list being fetched again is dimmed and marked aria-busy: it is judged once settled, as a person reads it.
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  }, WCAG_22_AA);
}
