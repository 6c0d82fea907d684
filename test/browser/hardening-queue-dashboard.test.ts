import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { AdminRole } from '../../src/modules/admins/admin-role';
import { eventually } from '../support/admin-client';
import { nextCode, setUpAdmin } from '../support/admin-session';
import { useBrowserService } from '../support/browser';

/**
 * The queue dashboard behind the admin console's session, in real Chromium (docs/admin.md, "The queue dashboard"):
 * an owner signed in at /admin reaches it from the console and pauses and resumes a queue with Bull Board's own
 * buttons (its requests carry the session's CSRF token from the XSRF-TOKEN cookie); a page of another site
 * that makes the same browser post to it changes nothing; a browser without the session is sent to sign in.
 */
const web = useBrowserService({}, { customerPage: false });
const SCREENSHOTS = process.env.DASHBOARD_SCREENSHOTS;

const refunds = () => web.service.services.refunds.queues.find((q) => q.name === 'refunds')!;

async function signedInAdmin(role = AdminRole.OWNER): Promise<Page> {
  const admin = await setUpAdmin(web.service, role);
  const context = await web.browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${web.service.url}/admin`);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByLabel('Authentication code').fill(nextCode(admin.secret));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText(`${admin.email} (${role})`).waitFor();
  return page;
}

async function queueAction(page: Page, action: 'Pause' | 'Resume') {
  await page.locator('button[aria-haspopup="menu"]').last().click();
  await page.getByRole('menuitem', { name: action }).click();
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith(`/admin/queues/api/queues/refunds/${action.toLowerCase()}`)),
    page.getByRole('button', { name: 'Confirm' }).click(),
  ]);
  return answer;
}

test('from the console to Bull Board: pause and resume a queue with its own buttons; each change carried the session\'s CSRF token', async () => {
  const page = await signedInAdmin();
  await page.getByRole('link', { name: 'Queue dashboard' }).click();
  await page.waitForURL(/\/admin\/queues\/?$/);
  await page.getByText('refunds', { exact: true }).first().click();
  await page.getByRole('heading', { name: 'refunds' }).waitFor();
  if (SCREENSHOTS) {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'queue-dashboard.png') });
  }
  const paused = await queueAction(page, 'Pause');
  expect(paused.status()).toBe(200);
  const csrf = (await page.context().cookies()).find((c) => c.name === '__Host-hcp_admin_csrf')!.value;
  expect(paused.request().headers()['x-xsrf-token']).toBe(csrf);
  await eventually(() => refunds().isPaused(), 30_000, 'the refunds queue paused');
  expect((await queueAction(page, 'Resume')).status()).toBe(200);
  await eventually(async () => !(await refunds().isPaused()), 30_000, 'the refunds queue resumed');
  await page.context().close();
}, 120_000);

test('support reads the same queues on a board without the buttons that change them', async () => {
  const page = await signedInAdmin(AdminRole.SUPPORT);
  await page.getByRole('link', { name: 'Queue dashboard' }).click();
  await page.getByText('refunds', { exact: true }).first().click();
  await page.getByRole('heading', { name: 'refunds' }).waitFor();
  // The board the page runs on says every queue is read-only, so Bull Board draws no pause, retry or clean actions.
  const board = await page.evaluate(async () => (await fetch('/admin/queues/api/queues')).json());
  expect(board.queues.map((q: { readOnlyMode: boolean }) => q.readOnlyMode)).toEqual(board.queues.map(() => true));
  await page.context().close();
}, 120_000);

test('another site making the signed-in browser post to the queue dashboard (a text/plain form, a form-encoded one) changes nothing', async () => {
  const page = await signedInAdmin();
  const context = page.context();
  const EVIL = 'https://evil.example.test';
  const target = `${web.service.url}/admin/queues/api`;
  await context.route(`${EVIL}/**`, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: `<!doctype html><title>Win</title>
        <form id="add" method="post" action="${target}/queues/refunds/add" enctype="text/plain"><input name='{"name":"x","data":{"refundId":"ref_forged"},"y":"' value='"}'></form>
        <form id="purge" method="post" action="${target}/metrics/history/purge"><input name="all" value="1"></form>`,
    }),
  );
  const before = await refunds().getJobCounts();
  for (const form of ['add', 'purge']) {
    const attacker = await context.newPage();
    await attacker.goto(`${EVIL}/`);
    const [answer] = await Promise.all([attacker.waitForResponse((r) => r.url().startsWith(target)), attacker.evaluate((id) => (document.getElementById(id) as HTMLFormElement).submit(), form)]);
    // SameSite=Strict: the session cookie stays home, so the request is nobody's.
    expect([form, answer.status()]).toEqual([form, 401]);
    await attacker.close();
  }
  expect(await refunds().getJobCounts()).toEqual(before);
  expect(await refunds().isPaused()).toBe(false);
  await context.close();
}, 120_000);

test('a browser without the admin session is sent to the sign-in form', async () => {
  const context = await web.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${web.service.url}/admin/queues`);
  await page.waitForURL(/\/admin$/);
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await context.close();
});
