import type { Browser, Page } from 'playwright-core';
import { adminSetupLink } from '../../src/modules/identity/admin-accounts';
import { totpCode } from '../../src/modules/identity/totp';
import { AdminRole } from '../../src/modules/admins/admin-role';
import { createAdmin } from '../../src/modules/admins/admin.service';
import { DEFAULT_ADMIN_TOKEN_TTL_DAYS } from '../../src/shared/config';
import { axeViolations, launchBrowser } from '../support/browser';
import { useTestService } from '../support/test-service';

/**
 * An admin made by the CLI follows the set-up link in Chromium (password, authenticator, first code,
 * recovery codes), then signs in at /admin with "Email", "Password" and "Authentication code" and uses the
 * console through the admin session (docs/admin.md). Controls are found by role and label, as people do.
 */
const service = useTestService();
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

const summary = (violations: Awaited<ReturnType<typeof axeViolations>>) => violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);

async function watch(page: Page) {
  const problems: string[] = [];
  const offSite: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('request', (request) => !request.url().startsWith(service.url) && !request.url().startsWith('data:') && offSite.push(request.url()));
  return { problems, offSite };
}

test('set-up link, then sign-in with password and authentication code, then the console as that admin; a reload keeps the session', async () => {
  const email = `browser-admin-${Date.now()}@payments.example`;
  const { admin } = await createAdmin(service.em(), { email, role: AdminRole.FINANCE, tokenTtlDays: DEFAULT_ADMIN_TOKEN_TTL_DAYS });
  const link = await adminSetupLink(service.em(), admin.id, service.url);
  const page = await browser.newPage();
  const { problems, offSite } = await watch(page);

  await page.goto(link);
  await page.getByRole('heading', { name: 'Set up your admin sign-in' }).waitFor();
  expect(summary(await axeViolations(page))).toEqual([]);
  await page.getByLabel('Password').fill('Password1234');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('alert').filter({ hasText: 'Password is too common; choose another' }).waitFor();
  await page.getByLabel('Password').fill('console-cobalt-meadow-31');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('img', { name: 'QR code of your authenticator key' }).waitFor();
  expect(summary(await axeViolations(page))).toEqual([]);
  const secret = (await page.locator('code').first().textContent())!.trim();
  await page.getByLabel('Authentication code').fill(totpCode(secret));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.getByRole('heading', { name: 'Recovery codes' }).waitFor();
  expect(await page.getByRole('listitem').count()).toBe(10);
  await page.getByRole('button', { name: 'Continue to sign in' }).click();

  await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
  expect(new URL(page.url()).search).toBe('');
  expect(summary(await axeViolations(page))).toEqual([]);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('console-cobalt-meadow-31');
  await page.getByLabel('Authentication code').fill('000000');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').filter({ hasText: 'Email, password or authentication code is incorrect' }).waitFor();
  await page.getByLabel('Authentication code').fill(totpCode(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText(`${email} (finance)`).waitFor();
  await page.getByRole('link', { name: 'Query console' }).click();
  await page.getByRole('button', { name: 'Approve a refund' }).waitFor();

  // The console's requests go with the session cookie and its CSRF header (no token anywhere).
  // GraphiQL takes the preset into its editor a moment after the click: run only once the editor holds it,
  // and read the answer whatever it is, so a refusal shows up as itself rather than as a timeout.
  await page.getByRole('button', { name: 'Who am I' }).click();
  await page.locator('.graphiql-query-editor').filter({ hasText: 'query CurrentAdmin' }).waitFor();
  await page.getByRole('button', { name: /Execute query/ }).click();
  const answer = page.locator('.result-window').filter({ hasText: /"(data|errors)"/ });
  await answer.waitFor({ timeout: 30_000 });
  expect(await answer.textContent()).toContain(email);

  await page.reload();
  await page.getByText(`${email} (finance)`).waitFor();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
  await page.reload();
  await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();

  // The one refusal is the wrong code's 401 answer; no CSP violation, no missing file, nothing off-site.
  expect(problems.filter((p) => !/status of 401/.test(p))).toEqual([]);
  expect(offSite).toEqual([]);
  await page.close();
}, 120_000);
