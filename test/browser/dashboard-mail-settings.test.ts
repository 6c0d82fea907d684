import type { Page } from 'playwright-core';
import { axeViolations, useBrowser } from '../support/browser';
import { STRONG_PASSWORD, newEmail } from '../support/dashboard-client';
import { useSmtpSink } from '../support/smtp-sink';
import { useTestService } from '../support/test-service';

/**
 * The Account screen's "Mail" section in real Chromium (docs/dashboard.md, "Mail: receipts and notifications"): the
 * support address customers are given and one switch per notification topic, all on by default; saved, kept after a
 * reload, a switched-off topic staying away. axe-core (WCAG 2.2 AA) at 320 px without sideways scrolling.
 */
const smtp = useSmtpSink();
const service = useTestService(() => ({ SMTP_URL: smtp.url, MAIL_POLL_INTERVAL_MS: '100' }));
const browser = useBrowser();

async function signedUp(page: Page): Promise<string> {
  const email = newEmail();
  await page.goto(`${service.url}/dashboard/signup`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
  await page.getByLabel('Shop name').fill('Switches Shop');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('link', { name: 'I have stored them: continue' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  return email;
}

test('the Mail section: every switch on by default; a support address and a switch saved, kept after a reload; no WCAG 2.2 AA violation at 320 px', async () => {
  const context = await browser.newContext({ viewport: { width: 320, height: 800 } });
  const page = await context.newPage();
  try {
    const email = await signedUp(page);
    await page.goto(`${service.url}/dashboard/account`);
    const mail = page.getByRole('region', { name: 'Mail', exact: true });
    await mail.waitFor();
    const support = mail.getByLabel('Support email for your customers');
    expect(await support.inputValue()).toBe('');
    expect(await support.getAttribute('placeholder')).toBe(email);
    const switches = mail.getByRole('group', { name: 'Email me when' }).getByRole('checkbox');
    expect(await switches.count()).toBe(6);
    for (let i = 0; i < 6; i++) expect(await switches.nth(i).isChecked()).toBe(true);
    expect([await axeViolations(page)]).toEqual([[]]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(320);

    await support.fill('help@switches.example');
    await mail.getByLabel('A withdrawal is paid or rejected').uncheck();
    await mail.getByRole('button', { name: 'Save mail settings' }).click();
    await mail.getByRole('status').filter({ hasText: 'Saved. Customers are told to write to help@switches.example.' }).waitFor();
    expect([await axeViolations(page)]).toEqual([[]]);
    // The change of support address is told to the account's address.
    await smtp.waitFor((m) => m.envelopeTo.includes(email) && /support address was changed/.test(m.parsed.subject ?? ''));

    await page.reload();
    await mail.waitFor();
    expect(await mail.getByLabel('Support email for your customers').inputValue()).toBe('help@switches.example');
    expect(await mail.getByLabel('A withdrawal is paid or rejected').isChecked()).toBe(false);
    expect(await mail.getByLabel('A dispute (chargeback) is opened or decided').isChecked()).toBe(true);

    // A bad address is refused in the service's words, next to the form.
    await mail.getByLabel('Support email for your customers').fill('not an address');
    await mail.getByRole('button', { name: 'Save mail settings' }).click();
    await mail.getByRole('alert').filter({ hasText: 'Support email must be a valid email address' }).waitFor();
  } finally {
    await context.close();
  }
});
