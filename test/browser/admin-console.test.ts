import type { Page } from 'playwright-core';
import { ADMIN_CONSOLE_CSP } from '../../src/modules/back-office/admin-page';
import { AdminRole } from '../../src/modules/admins/admin-role';
import { adminClient, completedPayment, eventually } from '../support/admin-client';
import { nextCode, setUpAdmin } from '../support/admin-session';
import { useBrowserService } from '../support/browser';

/** Each test opens its own wide context: GraphiQL wants the room, and the page is not a customer's. */
const web = useBrowserService({}, { customerPage: false });

/** Replaces the text of GraphiQL's variables editor, as a person pasting JSON would. */
async function setVariables(page: Page, variables: Record<string, unknown>) {
  await page.locator('.graphiql-editor-tool .CodeMirror').first().click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(JSON.stringify(variables, null, 2));
}

/** Runs the editor's operation at once, as a person pressing ▶ right after picking a preset. */
async function run(page: Page): Promise<void> {
  await page.getByRole('button', { name: /Execute query/ }).click();
}

/** Signs in at /admin as a person does: e-mail, password, authenticator code (a wrong code first, when asked). */
async function signIn(page: Page, admin: Awaited<ReturnType<typeof setUpAdmin>>, wrongCodeFirst = false) {
  const attempt = async (code: string) => {
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByLabel('Authentication code').fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };
  if (wrongCodeFirst) {
    await attempt('000000');
    await page.getByRole('alert').waitFor();
  }
  await attempt(nextCode(admin.secret));
}

/** Waits until GraphiQL's response pane shows `text`. */
async function responseShows(page: Page, text: string) {
  await page.locator('.result-window').filter({ hasText: text }).waitFor({ timeout: 30_000 });
}

test('a finance admin signs in at /admin with password and code, runs the refund queue and approves a refund; the payment becomes refunded over REST', async () => {
  const admin = await setUpAdmin(web.service, AdminRole.FINANCE);
  const support = await adminClient(web.service, AdminRole.SUPPORT);
  const { seller, paymentId } = await completedPayment(web.service, 4200);
  const refundId = (await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "Customer returned the parcel") { id } }`, { p: paymentId })).requestRefund.id;

  const context = await web.browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(error.message));
  const offSite: string[] = [];
  page.on('request', (request) => !request.url().startsWith(web.service.url) && !request.url().startsWith('data:') && offSite.push(request.url()));

  const response = await page.goto(`${web.service.url}/admin`);
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toBe(ADMIN_CONSOLE_CSP);

  // A wrong code is refused with a message; the right one opens the console.
  await signIn(page, admin, true);

  // The console names the admin and offers finance's work, not the owner's (the query console is one click from Home).
  await page.getByText(`${admin.email} (finance)`).waitFor();
  await page.getByRole('link', { name: 'Query console' }).click();
  expect(await page.getByRole('button', { name: 'Delete a shop' }).count()).toBe(0);

  // The refund queue, narrowed to the payment support is asked about.
  await page.getByRole('button', { name: 'Refund queue' }).click();
  await setVariables(page, { status: 'REQUESTED', paymentId, page: 1, limit: 20 });
  await run(page);
  await responseShows(page, refundId);
  await responseShows(page, '"pastReviewWindow": false');

  // Approve it.
  await page.getByRole('button', { name: 'Approve a refund' }).click();
  await setVariables(page, { id: refundId });
  await run(page);
  await responseShows(page, '"status": "APPROVED"');

  await eventually(async () => (await seller.retrieve(paymentId)).body.data.status === 'refunded', 30_000, 'refunded over REST');

  // Nothing went wrong in the page (the wrong code is an answer, not a failed load): no operation run under the
  // previous preset's name, no CSP violation, no missing file, no script error.
  expect(problems).toEqual([]);
  expect(offSite).toEqual([]);
  await context.close();
}, 90_000);

test('a support admin is offered recording a refund request, but no approval, and the buttons survive a reload', async () => {
  const support = await setUpAdmin(web.service, AdminRole.SUPPORT);
  const page = await web.browser.newPage();
  await page.goto(`${web.service.url}/admin`);
  await signIn(page, support);
  await page.getByText(`${support.email} (support)`).waitFor();
  await page.getByRole('link', { name: 'Query console' }).click();
  await page.getByRole('button', { name: 'Refund queue' }).waitFor();
  const offered = async () => ({
    record: await page.getByRole('button', { name: 'Record a refund request' }).count(),
    approve: await page.getByRole('button', { name: 'Approve a refund' }).count(),
    markPaid: await page.getByRole('button', { name: 'Mark a withdrawal paid' }).count(),
    suspend: await page.getByRole('button', { name: 'Suspend a seller' }).count(),
    tokens: await page.getByRole('button', { name: 'Admin tokens' }).count(),
  });
  expect(await offered()).toEqual({ record: 1, approve: 0, markPaid: 0, suspend: 0, tokens: 1 });
  await page.reload();
  await page.getByText(`${support.email} (support)`).waitFor();
  await page.getByRole('button', { name: 'Refund queue' }).waitFor();
  expect(await offered()).toEqual({ record: 1, approve: 0, markPaid: 0, suspend: 0, tokens: 1 });
  await page.close();
}, 120_000);

test('the screens take no admin token: the sign-in page has no field for one, and a token sent from the page is refused', async () => {
  const owner = await adminClient(web.service, AdminRole.OWNER);
  const page = await web.browser.newPage();
  await page.goto(`${web.service.url}/admin`);
  await page.getByLabel('Authentication code').waitFor();
  expect(await page.getByLabel('Admin token').count()).toBe(0);
  const answer = await page.evaluate(async (token) => {
    const res = await fetch('/graphql', { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify({ query: '{ currentAdmin { email } }' }) });
    return { status: res.status, body: await res.json() };
  }, owner.token);
  expect(answer).toEqual({ status: 403, body: { errors: [{ message: expect.stringMatching(/^Admin tokens are for scripts/), extensions: { code: 'ADMIN_TOKEN_IN_BROWSER' } }] } });
  await page.close();
});

test('the console assets are served with the same strict headers, and unknown assets are 404', async () => {
  const page = await web.browser.newPage();
  const index = await page.goto(`${web.service.url}/admin`);
  const html = await index!.text();
  const script = /src="(\/admin\/assets\/admin\.[0-9a-f]{12}\.js)"/.exec(html)![1];
  const asset = await page.goto(`${web.service.url}${script}`);
  expect(asset?.headers()).toMatchObject({ 'content-security-policy': ADMIN_CONSOLE_CSP, 'cache-control': 'public, max-age=31536000, immutable', 'x-frame-options': 'DENY' });
  expect((await page.goto(`${web.service.url}/admin/assets/admin.000000000000.js`))?.status()).toBe(404);
  await page.close();
});
