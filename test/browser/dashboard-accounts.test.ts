import type { BrowserContext, Page } from 'playwright-core';
import { totpCode } from '../../src/modules/identity/totp';
import { AdminRole } from '../../src/modules/admins/admin-role';
import { ERROR_CATALOGUE } from '../../src/shared/errors';
import { adminClient } from '../support/admin-client';
import { axeViolations, useBrowser } from '../support/browser';
import { STRONG_PASSWORD, newEmail } from '../support/dashboard-client';
import { useMailServer } from '../support/mail-server';
import { mailsSettled, outboxMailsTo } from '../support/mail-outbox';
import { useTestService } from '../support/test-service';

/**
 * The dashboard's account screens in real Chromium (issue 12, docs/dashboard.md): two-factor turned on from
 * the Account screen (QR code, first code, recovery codes), sign-in with the authentication code, sessions
 * listed and ended one by one, change password, password reset and invitation from the mailed links (a real
 * SMTP server on loopback). axe-core (WCAG 2.2 AA) on every new screen and state.
 */
const mail = useMailServer();
const service = useTestService(() => ({ SMTP_URL: mail.url, AUTH_FAILURES_PER_MINUTE: '10000' }));
const browser = useBrowser();

const message = (code: string) => ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE].message as string;

async function newPage(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && !/status of 4\d\d/.test(m.text()) && problems.push(m.text()));
  page.on('request', (r) => !r.url().startsWith(service.url) && !r.url().startsWith('data:') && problems.push(`off-site: ${r.url()}`));
  return { context, page, problems };
}

async function noViolations(page: Page, state: string) {
  expect([state, await axeViolations(page)]).toEqual([state, []]);
}

async function signUp(page: Page, shopName: string): Promise<string> {
  const email = newEmail();
  await page.goto(`${service.url}/dashboard/signup`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByLabel('Shop name').fill(shopName);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('link', { name: 'I have stored them: continue' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  return email;
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${service.url}/dashboard/login`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The path and query of the link in the next mail to `to` whose subject matches, on this service. */
async function mailedLink(to: string, subject: RegExp): Promise<string> {
  const received = await mail.mailTo(to, subject);
  const link = received.links.find((l) => l.searchParams.get('token'));
  if (!link) throw new Error(`no link in the mail "${received.subject}" to ${to}`);
  return `${service.url}${link.pathname}${link.search}`;
}

test('two-factor: turned on from Account (password, QR code, first code, 10 recovery codes once), then sign-in asks for the code (typed, Enter submits, focus on the code field); another session is listed and signed out; turned off with password and a recovery code', async () => {
  const { context, page, problems } = await newPage();
  const email = await signUp(page, 'Second Factor Shop');
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Account', exact: true }).click();
  await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
  const twoFactor = page.getByRole('region', { name: 'Two-factor', exact: true });
  await noViolations(page, 'account, two-factor off');

  // The password first: a wrong one is refused (and counts towards the lockout).
  await twoFactor.getByLabel('Password', { exact: true }).fill('not-my-password-at-all');
  await twoFactor.getByRole('button', { name: 'Turn on two-factor' }).click();
  await twoFactor.getByRole('alert').getByText(message('PASSWORD_INCORRECT')).waitFor();
  await twoFactor.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await twoFactor.getByRole('button', { name: 'Turn on two-factor' }).click();

  // The QR code is drawn by our server and shown as an image under the strict CSP (no CSP error reported).
  const qr = twoFactor.getByRole('img', { name: 'QR code of your authenticator key' });
  await qr.waitFor();
  expect(await qr.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0)).toBe(true);
  const secret = (await twoFactor.locator('code').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await noViolations(page, 'account, QR code');
  await twoFactor.getByLabel('Authentication code').fill('000000');
  await twoFactor.getByRole('button', { name: 'Confirm' }).click();
  await twoFactor.getByRole('alert').filter({ hasText: /./ }).waitFor();
  await twoFactor.getByLabel('Authentication code').fill(totpCode(secret));
  await twoFactor.getByRole('button', { name: 'Confirm' }).click();
  const codes = twoFactor.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await twoFactor.getByRole('heading', { name: 'Recovery codes' }).waitFor();
  expect(await codes.count()).toBe(10);
  const recovery = await codes.allTextContents();
  await noViolations(page, 'account, recovery codes');
  await twoFactor.getByRole('button', { name: 'I have stored them' }).click();
  await twoFactor.getByRole('button', { name: 'Turn off two-factor' }).waitFor();
  expect(await page.content()).not.toContain(recovery[0]);
  await noViolations(page, 'account, two-factor on');

  // Sign out; the password alone now asks for the code. Typed: Enter submits, focus lands on the code field.
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
  await page.getByLabel('Email', { exact: true }).focus();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(STRONG_PASSWORD);
  await page.keyboard.press('Enter');
  await page.getByLabel('Authentication code').waitFor();
  expect(await page.evaluate(() => document.querySelector(`label[for="${document.activeElement?.id}"]`)?.textContent)).toBe('Authentication code');
  await noViolations(page, 'sign-in, authentication code step');
  await page.keyboard.type('123456');
  await page.keyboard.press('Enter');
  await page.getByRole('alert').getByText(message('SIGN_IN_FAILED_WITH_CODE')).waitFor();
  await page.getByLabel('Authentication code').fill('');
  await page.getByLabel('Authentication code').focus();
  // The next 30-second step: the confirming code's step cannot be used again.
  await page.keyboard.type(totpCode(secret, Date.now() + 30_000));
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();

  // A second browser signs in with a recovery code; the first lists it and signs it out.
  const other = await newPage();
  await signIn(other.page, email, STRONG_PASSWORD);
  await other.page.getByLabel('Authentication code').fill(recovery[1]);
  await other.page.getByRole('button', { name: 'Sign in' }).click();
  await other.page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  await page.goto(`${service.url}/dashboard/account`);
  const sessions = page.getByRole('region', { name: 'Active sessions', exact: true }).first();
  await sessions.getByText('This browser').waitFor();
  expect(await sessions.getByRole('row').count()).toBe(3); // the header and two sessions
  await sessions.getByRole('button', { name: /^Sign out Chrome/ }).click();
  await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
  await sessions.getByRole('button', { name: /^Sign out Chrome/ }).waitFor({ state: 'detached' });
  expect(await sessions.getByRole('row').count()).toBe(2);
  await other.page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Payments', exact: true }).click();
  await other.page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
  await other.context.close();

  // Off: password and a code (here a recovery code); then sign-in needs the password alone.
  await twoFactor.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await twoFactor.getByLabel('Authentication code').fill(recovery[1]);
  await twoFactor.getByRole('button', { name: 'Turn off two-factor' }).click();
  await twoFactor.getByRole('alert').getByText(message('AUTHENTICATION_CODE_INVALID')).waitFor(); // a used recovery code is spent
  await twoFactor.getByLabel('Authentication code').fill(recovery[2]);
  await twoFactor.getByRole('button', { name: 'Turn off two-factor' }).click();
  await twoFactor.getByRole('button', { name: 'Turn on two-factor' }).waitFor();
  const fresh = await newPage();
  await signIn(fresh.page, email, STRONG_PASSWORD);
  await fresh.page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  await fresh.context.close();
  expect(problems).toEqual([]);
  await context.close();
}, 120_000);

test('change password on the Account screen: the current password is required, the new one must pass the rule, then it signs in', async () => {
  const { context, page, problems } = await newPage();
  const email = await signUp(page, 'Password Change Shop');
  await page.goto(`${service.url}/dashboard/account`);
  const section = page.getByRole('region', { name: 'Password', exact: true });
  await section.getByLabel('Current password').fill('wrong-current-password');
  await section.getByLabel('New password').fill('granite-orchard-lamp-77');
  await section.getByRole('button', { name: 'Change password' }).click();
  await section.getByRole('alert').getByText(message('PASSWORD_INCORRECT')).waitFor();
  await section.getByLabel('Current password').fill(STRONG_PASSWORD);
  await section.getByLabel('New password').fill('short');
  await section.getByRole('button', { name: 'Change password' }).click();
  await section.getByRole('alert').getByText(message('PASSWORD_TOO_SHORT')).waitFor();
  await noViolations(page, 'account, change password refused');
  await section.getByLabel('New password').fill('granite-orchard-lamp-77');
  await section.getByRole('button', { name: 'Change password' }).click();
  await section.getByText('Your password is changed').waitFor();
  const fresh = await newPage();
  await signIn(fresh.page, email, STRONG_PASSWORD);
  await fresh.page.getByRole('alert').getByText(message('SIGN_IN_FAILED')).waitFor();
  await signIn(fresh.page, email, 'granite-orchard-lamp-77');
  await fresh.page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  await fresh.context.close();
  expect(problems).toEqual([]);
  await context.close();
}, 120_000);

test('"Forgot password?": the same answer for a known and an unknown address, only the known one is mailed; the mailed link sets a new password once', async () => {
  const { context, page } = await newPage();
  const email = await signUp(page, 'Forgetful Shop');
  await context.clearCookies();
  const { page: anonymous, context: anonymousContext, problems } = await newPage();
  await anonymous.goto(`${service.url}/dashboard/login`);
  await anonymous.getByRole('link', { name: 'Forgot password?' }).click();
  await anonymous.getByRole('heading', { name: 'Reset your password', level: 1 }).waitFor();
  const answerFor = async (address: string) => {
    await anonymous.getByLabel('Email', { exact: true }).fill(address);
    await anonymous.getByRole('button', { name: 'Send reset link' }).click();
    const status = anonymous.getByRole('status').filter({ hasText: 'If this address has an account' });
    await status.waitFor();
    const text = await status.textContent();
    await anonymous.reload();
    await anonymous.getByRole('heading', { name: 'Reset your password', level: 1 }).waitFor();
    return text;
  };
  const unknown = newEmail();
  expect(await answerFor(unknown)).toBe(await answerFor(email));
  const link = await mailedLink(email, /Reset your password/);
  await mailsSettled(service, [email, unknown]);
  expect(await outboxMailsTo(service, unknown)).toEqual([]);
  expect(mail.received.some((m) => m.to.includes(unknown))).toBe(false);

  await anonymous.goto(link);
  await anonymous.getByLabel('New password').fill('password1234');
  await anonymous.getByRole('button', { name: 'Set new password' }).click();
  await anonymous.getByRole('alert').filter({ hasText: /./ }).waitFor();
  await noViolations(anonymous, 'reset password refused');
  await anonymous.getByLabel('New password').fill('saffron-quarry-bicycle-19');
  await anonymous.getByRole('button', { name: 'Set new password' }).click();
  await anonymous.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
  await anonymous.getByText('Your password is changed').waitFor();
  await noViolations(anonymous, 'sign-in after reset');
  // The link works once.
  await anonymous.goto(link);
  await anonymous.getByLabel('New password').fill('another-quarry-bicycle-20');
  await anonymous.getByRole('button', { name: 'Set new password' }).click();
  await anonymous.getByRole('alert').getByText(message('LINK_INVALID')).waitFor();
  await signIn(anonymous, email, STRONG_PASSWORD);
  await anonymous.getByRole('alert').getByText(message('SIGN_IN_FAILED')).waitFor();
  await signIn(anonymous, email, 'saffron-quarry-bicycle-19');
  await anonymous.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  expect(problems).toEqual([]);
  await anonymousContext.close();
  await context.close();
}, 120_000);

test('an invited seller (created by an owner admin) sets the password from the mailed link, then signs in', async () => {
  const owner = await adminClient(service, AdminRole.OWNER);
  const email = newEmail();
  await owner.ok('mutation($email: String!) { createSellerWithShop(email: $email, shop: { shopName: "Invited Shop" }) { seller { id } } }', { email });
  const link = await mailedLink(email, /invited/);
  const { context, page, problems } = await newPage();
  await page.goto(link);
  await page.getByRole('heading', { name: 'Set your password', level: 1 }).waitFor();
  await noViolations(page, 'accept invitation');
  await page.getByLabel('Password', { exact: true }).fill('password1234');
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('alert').getByText(message('PASSWORD_TOO_COMMON')).waitFor();
  await page.getByLabel('Password', { exact: true }).fill('lantern-meadow-cobalt-64');
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByText('Your password is set').waitFor();
  await signIn(page, email, 'lantern-meadow-cobalt-64');
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  expect(problems).toEqual([]);
  await context.close();
}, 120_000);

test('the keyboard alone: "Forgot password?" from the sign-in page, and turning two-factor on from the Account screen', async () => {
  const { context, page, problems } = await newPage();
  const email = await signUp(page, 'Keyboard Factor Shop');
  const focusedName = () => page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return (el?.id && document.querySelector(`label[for="${el.id}"]`)?.textContent) || el?.textContent || '';
  });
  const tabTo = async (name: string) => {
    for (let i = 0; i < 60; i += 1) {
      await page.keyboard.press('Tab');
      if ((await focusedName()) === name) return;
    }
    throw new Error(`Tab never reached ${name}`);
  };

  // Two-factor on: Tab to the section's password, Enter; the QR step's heading takes the focus; Tab to the code.
  await page.goto(`${service.url}/dashboard/account`);
  await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
  await tabTo('Turn on two-factor');
  await page.keyboard.press('Shift+Tab');
  expect(await focusedName()).toBe('Password');
  await page.keyboard.type(STRONG_PASSWORD);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Scan the QR code' }).waitFor();
  expect(await focusedName()).toBe('Scan the QR code');
  const secret = (await page.getByRole('region', { name: 'Two-factor', exact: true }).locator('code').textContent())!.trim();
  await tabTo('Authentication code');
  await page.keyboard.type(totpCode(secret));
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Recovery codes' }).waitFor();
  await tabTo('I have stored them');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Turn off two-factor' }).waitFor();

  // Signed out: "Forgot password?" is reached with Tab and followed with Enter; the request is sent with Enter.
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
  await tabTo('Forgot password?');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Reset your password', level: 1 }).waitFor();
  await tabTo('Email');
  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  await page.getByRole('status').filter({ hasText: 'If this address has an account' }).waitFor();
  await mail.mailTo(email, /Reset your password/);
  expect(problems).toEqual([]);
  await context.close();
}, 120_000);
