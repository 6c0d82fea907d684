import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { axeViolations, useBrowser } from '../support/browser';
import { newEmail, STRONG_PASSWORD } from '../support/dashboard-client';
import { useTestService } from '../support/test-service';

/**
 * The local mail viewer in Chromium (docs/operations.md, "Mail"): `npm start` without SMTP_URL keeps every mail, and
 * the developer reads them at /dev/mail. A new seller signs up on the dashboard, opens the verification mail there
 * and follows its link, as the first withdrawal asks. Found by role and label; axe-core (WCAG 2.2 AA) at 375 px and
 * 1280 px; screenshots go to MAIL_VIEWER_SCREENSHOTS (a directory; a temporary one otherwise).
 */
const SHOTS = process.env.MAIL_VIEWER_SCREENSHOTS ?? fs.mkdtempSync(path.join(os.tmpdir(), 'mail-viewer-shots-'));
/** BASE_URL unset, as `npm start` runs: this machine on the port bound. */
const service = useTestService({ BASE_URL: undefined as unknown as string, SMTP_URL: '', ACCOUNT_SECRETS_KEY: '4f'.repeat(32), MAIL_POLL_INTERVAL_MS: '100' });
const browser = useBrowser();
/** The service by the name its links use (BASE_URL unset: localhost), so the session cookie goes with them. */
const local = () => `http://localhost:${new URL(service.url).port}`;

async function newPage(width: number): Promise<{ page: Page; problems: string[]; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  // A CSP refusal is a console error; the dashboard's expected 401s before sign-in are not problems.
  page.on('console', (m) => m.type() === 'error' && !/status of 40\d/.test(m.text()) && problems.push(m.text()));
  return { page, problems, close: () => context.close() };
}

/** Signs a new seller up on the dashboard, in this page's browser. */
async function signUp(page: Page, shopName: string): Promise<string> {
  const email = newEmail();
  await page.goto(`${local()}/dashboard/signup`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByLabel('Shop name').fill(shopName);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByLabel('API key').waitFor();
  return email;
}

/** The viewer's list, then the newest mail to `email` of this subject. */
async function openMail(page: Page, email: string, subject: string): Promise<void> {
  await page.goto(`${local()}/dev/mail`);
  await page.getByRole('heading', { name: 'Mail', level: 1 }).waitFor();
  await page.getByRole('listitem').filter({ hasText: email }).getByRole('link', { name: subject }).first().click();
  await page.getByRole('heading', { name: subject, level: 1 }).waitFor();
}

test('a new seller opens the verification mail in the viewer and follows its link: the address is verified', async () => {
  const { page, problems, close } = await newPage(1280);
  try {
    const email = await signUp(page, 'Night Owl Books');
    await openMail(page, email, 'Verify your email address');
    await expectRow(page, 'To', email);
    await expectRow(page, 'Status', 'kept');
    await page.getByRole('link', { name: /\/dashboard\/verify-email\?token=/ }).click();
    await page.getByText('Your email address is verified').waitFor();
    expect(problems).toEqual([]);
  } finally {
    await close();
  }
});

describe.each([375, 1280])('at %i px', (width) => {
  test('the list and a mail read whole, without sideways scrolling, with no WCAG 2.2 AA violation', async () => {
    const { page, problems, close } = await newPage(width);
    try {
      const email = await signUp(page, `Corner Shop ${width}`);
      await page.goto(`${local()}/dev/mail`);
      await page.getByRole('heading', { name: 'Mail', level: 1 }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, `mail-list-${width}.png`), fullPage: false });

      await openMail(page, email, 'Verify your email address');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, `mail-verification-${width}.png`), fullPage: true });

      // The HTML part, sandboxed: shown as a mail program would, its link still a link.
      await page.getByRole('link', { name: 'The HTML part' }).click();
      await page.getByRole('link', { name: 'Verify your email address' }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

/** The fact `name` of the shown mail reads `value`. */
async function expectRow(page: Page, name: string, value: string): Promise<void> {
  const term = page.locator('dt', { hasText: name });
  await expect(term.locator('xpath=following-sibling::dd[1]').textContent()).resolves.toBe(value);
}
