import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { totpCode } from '../../src/modules/identity/totp';
import { axeViolations, useBrowserService } from '../support/browser';
import { STRONG_PASSWORD, newEmail } from '../support/dashboard-client';

/**
 * Re-authentication in the dashboard, in real Chromium (docs/dashboard.md, "Re-authentication"): saving the payout
 * account, the webhook URL or rotating the webhook secret opens a dialog asking for the current password (or a
 * code with two-factor on). A script running in the signed-in page (what an XSS gets) cannot make the change
 * without it; the person at the screen can. The dialog passes axe-core, at 320 px too.
 */
const web = useBrowserService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1' }, { customerPage: false });
const SCREENSHOTS = process.env.DASHBOARD_SCREENSHOTS;

async function shoot(page: Page, name: string) {
  if (!SCREENSHOTS) return;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

async function signUp(width = 1280): Promise<{ context: BrowserContext; page: Page; email: string; problems: string[] }> {
  const context = await web.browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  const email = newEmail();
  await page.goto(`${web.service.url}/dashboard/signup`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByLabel('Shop name').fill('Guarded Books');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByLabel('API key').or(page.getByRole('alert').filter({ hasText: /./ })).first().waitFor();
  const refusal = page.getByRole('alert').filter({ hasText: /./ });
  if (await refusal.count()) throw new Error(`sign-up refused: ${await refusal.first().textContent()}`);
  await page.getByRole('link', { name: 'I have stored them: continue' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  return { context, page, email, problems };
}

const payoutOf = async (email: string) =>
  (await web.service.em().execute(`select "payout_account_holder" as holder, "payout_account_last4" as last4 from "sellers" where "email" = ?`, [email]))[0];

test('saving the payout account asks for the password in a dialog: a wrong one is said there and saves nothing, Cancel saves nothing, the right one saves', async () => {
  const { context, page, email, problems } = await signUp();
  await page.goto(`${web.service.url}/dashboard/withdrawals`);
  await page.getByLabel('Account holder').fill('Harbour Books Ltd');
  await page.getByLabel('Bank account number').fill('DE89 3704 0044 0532 0130 00');
  await page.getByRole('button', { name: 'Save payout account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await dialog.waitFor();
  // Focus is in the dialog's field; the page behind is inert (a modal dialog).
  expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('password');
  expect(await axeViolations(page)).toEqual([]);
  await shoot(page, 'reauth-dialog');

  await dialog.getByLabel('Current password').fill('not-the-password-at-all');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.getByRole('alert').getByText('Current password is incorrect').waitFor();
  await shoot(page, 'reauth-dialog-wrong');
  expect((await payoutOf(email)).holder).toBeNull();

  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await page.getByText('Not saved: the payout account is unchanged.').waitFor();
  expect((await payoutOf(email)).holder).toBeNull();
  // Focus went back to the button that opened the dialog.
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Save payout account');

  await page.getByRole('button', { name: 'Save payout account' }).click();
  await dialog.getByLabel('Current password').fill(STRONG_PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await page.getByText('Payout account saved: •••• 3000.').waitFor();
  expect(await payoutOf(email)).toEqual({ holder: 'Harbour Books Ltd', last4: '3000' });
  await shoot(page, 'reauth-saved');
  expect(problems).toEqual([]);
  await context.close();
}, 120_000);

test('a script in the signed-in page (an XSS) cannot change the webhook URL, rotate the secret or redirect payouts without the password', async () => {
  const { context, page, email } = await signUp();
  await page.goto(`${web.service.url}/dashboard/developers`);
  const answers = await page.evaluate(async () => {
    const csrf = /(?:^|;\s*)__Host-hcp_csrf=([^;]*)/.exec(document.cookie)?.[1] ?? '';
    const send = async (query: string) =>
      (await (await fetch('/graphql', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf }, body: JSON.stringify({ query }) })).json()) as { errors?: { extensions?: { code?: string } }[] };
    return Promise.all([
      send('mutation { setWebhookUrl(url: "http://127.0.0.1:9/attacker") { id } }'),
      send('mutation { rotateWebhookSecret { webhookSecret } }'),
      send('mutation { setPayoutAccount(holder: "Mallory", accountNumber: "GB29NWBK60161331926819") { holder } }'),
    ]);
  });
  expect(answers.map((a) => a.errors?.[0]?.extensions?.code)).toEqual(['REAUTHENTICATION_REQUIRED', 'REAUTHENTICATION_REQUIRED', 'REAUTHENTICATION_REQUIRED']);
  const [shop] = await web.service.em().execute(`select sh."webhook_url" from "shops" sh join "sellers" s on s."id" = sh."seller_id" where s."email" = ?`, [email]);
  expect(shop.webhook_url).toBeNull();
  expect((await payoutOf(email)).holder).toBeNull();

  // The person at the screen saves the URL and rotates the secret through the dialog.
  await page.getByLabel('Webhook URL').fill('http://127.0.0.1:9/hooks');
  await page.getByRole('button', { name: 'Save webhook URL' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await dialog.getByLabel('Current password').fill(STRONG_PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await page.getByText('Webhook URL saved.').waitFor();
  await page.getByRole('button', { name: 'Rotate webhook secret' }).click();
  await dialog.getByLabel('Current password').fill(STRONG_PASSWORD);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await page.getByText('Webhook secret rotated.').waitFor();
  expect(await page.getByLabel('Webhook secret').inputValue()).toMatch(/^whsec_/);
  await context.close();
}, 120_000);

test('with two-factor on the dialog asks for an authentication code, and works at 320 px', async () => {
  const { context, page } = await signUp(320);
  await page.goto(`${web.service.url}/dashboard/account`);
  const twoFactor = page.locator('#two-factor-section');
  await twoFactor.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await twoFactor.getByRole('button', { name: 'Turn on two-factor' }).click();
  const secret = (await twoFactor.locator('code.mono').textContent())!.trim();
  await twoFactor.getByLabel('Authentication code').fill(totpCode(secret));
  await twoFactor.getByRole('button', { name: 'Confirm' }).click();
  await twoFactor.getByRole('button', { name: 'I have stored them' }).click();

  await page.goto(`${web.service.url}/dashboard/developers`);
  await page.getByLabel('Webhook URL').fill('http://127.0.0.1:9/hooks');
  await page.getByRole('button', { name: 'Save webhook URL' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await dialog.getByLabel('Authentication code').waitFor();
  expect(await dialog.getByLabel('Current password').count()).toBe(0);
  expect(await axeViolations(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(320);
  await shoot(page, 'reauth-dialog-code-320');
  await dialog.getByLabel('Authentication code').fill(totpCode(secret, Date.now() + 30_000));
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await page.getByText('Webhook URL saved.').waitFor();
  await context.close();
}, 120_000);
