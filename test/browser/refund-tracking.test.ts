import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { AdminRole } from '../../src/modules/admins/admin-role';
import { NOTIFICATION_TOPICS } from '../../src/modules/notifications/mail-kinds';
import { setMailSettings } from '../../src/modules/notifications/mail-settings';
import { adminClient, type AdminClient } from '../support/admin-client';
import { axeViolations, customerPage, useBrowser, type CustomerPage } from '../support/browser';
import { checkoutClient } from '../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../support/seller-client';
import { useSmtpSink } from '../support/smtp-sink';
import { useTestService } from '../support/test-service';

/**
 * A customer follows a refund on its tracking page (docs/integrate.md), from the link of the mail they get, on a
 * 375 px phone: support records the request, a finance admin approves it, the refund job sends it to the simulated
 * acquirer (which takes a few seconds here, so the page can be seen while the bank has it) and it completes; and a
 * refund the acquirer refuses. Screenshots go to REFUND_PAGE_SCREENSHOTS (a directory; a temporary one otherwise).
 */
jest.setTimeout(90_000);

const SHOTS = process.env.REFUND_PAGE_SCREENSHOTS ?? fs.mkdtempSync(path.join(os.tmpdir(), 'refund-page-shots-'));
const WIDTH = 375;

const smtp = useSmtpSink();
const service = useTestService(() => ({ SMTP_URL: smtp.url, MAIL_POLL_INTERVAL_MS: '100', SIMULATED_REFUND_DELAY_MS: '2500', REFUND_PAGE_VIEWS_PER_CLIENT: '100000' }));
const browser = useBrowser();
let support: AdminClient;
let finance: AdminClient;
let apiKey: string;
let customer: CustomerPage | undefined;
beforeAll(async () => {
  support = await adminClient(service, AdminRole.SUPPORT);
  finance = await adminClient(service, AdminRole.FINANCE);
  const shop = await service.createShop({ shopName: 'Corner Bakery' });
  apiKey = shop.apiKey;
  await setMailSettings(service.em(), shop.seller.id, 'help@cornerbakery.example', NOTIFICATION_TOPICS);
});
beforeEach(async () => {
  customer = await customerPage(browser, { viewport: { width: WIDTH, height: 800 } });
});
afterEach(async () => {
  await customer?.close();
});

let customers = 0;

/** A customer who paid 42.50 with a card, and the support admin recording the shop's refund request of 12.50. */
async function refundRequested(): Promise<{ email: string; paymentId: string; refundId: string }> {
  const email = `ann-${++customers}-${Date.now()}@example.com`;
  const created = await sellerClient(service.url, apiKey).create({ ...VALID_PAYMENT, amount: 4250, customer_email: email });
  await checkoutClient(service.url).pay(created.body.data.id, '4242424242424242');
  const paymentId = created.body.data.id as string;
  const { requestRefund } = await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "customer asked", amount: 1250) { id } }`, { p: paymentId });
  return { email, paymentId, refundId: requestRefund.id };
}

/** The link of the mail, as the customer clicks it: the service's public address is this test's service. */
async function linkFromMail(email: string, subject: RegExp): Promise<string> {
  const [mail] = await smtp.waitFor((m) => m.envelopeTo.includes(email) && subject.test(m.parsed.subject ?? ''));
  const link = new URL((mail.parsed.text ?? '').match(/https:\/\/\S+\/refunds\/\S+/)![0]);
  return `${service.url}${link.pathname}`;
}

const approve = (refundId: string) => finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: refundId });

/** The stages as the page lists them: each item's label, its time element's datetime, and whether it is the current one. */
function stagesOf(page: Page) {
  return page
    .getByRole('list')
    .getByRole('listitem')
    .evaluateAll((items) =>
      items.map((item) => ({
        label: item.querySelector('.stage-label')?.textContent ?? '',
        time: item.querySelector('time')?.getAttribute('datetime') ?? null,
        current: item.getAttribute('aria-current') === 'step',
      })),
    );
}

/** Reloads the page, as a customer checking again, until `label` is the current stage. */
async function reloadUntilCurrent(page: Page, label: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await page.reload();
    if ((await stagesOf(page)).some((s) => s.current && s.label === label)) return;
    if (Date.now() > deadline) throw new Error(`the page never showed "${label}" as the current stage`);
    await page.waitForTimeout(200);
  }
}

/** What every state of the page must be: readable at 375 px without sideways scrolling, no WCAG 2.2 AA violation, nothing fetched elsewhere. */
async function expectWellFormed(page: Page, shot: string): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(WIDTH);
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Refund from Corner Bakery');
  expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['What happens next', 'Progress', 'Questions']);
  expect(await page.locator('meta[name="robots"]').getAttribute('content')).toMatch(/noindex/);
  expect(await axeViolations(page)).toEqual([]);
  expect(customer!.problems).toEqual([]);
  expect(customer!.requests.map((r) => new URL(r.url()).origin).filter((origin) => origin !== service.url && origin !== 'null')).toEqual([]);
  await page.screenshot({ path: path.join(SHOTS, `${shot}.png`), fullPage: true });
}

test('a refund followed from request to completion: each stage with its time, the bank reference, then the notice with the same link', async () => {
  const { email, paymentId, refundId } = await refundRequested();
  const link = await linkFromMail(email, /^Corner Bakery asked to refund your payment$/);
  const page = customer!.page;

  const answer = await page.goto(link);
  expect(answer?.status()).toBe(200);
  expect(answer?.headers()['x-robots-tag']).toMatch(/noindex/);
  expect(await page.getByText('$12.50').isVisible()).toBe(true);
  expect(await page.getByText('usually within 24 hours').isVisible()).toBe(true);
  expect(await page.getByRole('link', { name: 'help@cornerbakery.example' }).getAttribute('href')).toBe('mailto:help@cornerbakery.example');
  const requested = await stagesOf(page);
  expect(requested.map((s) => [s.label, s.time !== null, s.current])).toEqual([
    ['Refund requested', true, true],
    ['Approved', false, false],
    ["Sent to your card's bank", false, false],
    ['Refunded', false, false],
  ]);
  expect(await page.locator('body').textContent()).not.toContain(paymentId);
  await expectWellFormed(page, 'refund-requested');

  // A finance admin approves; the refund job sends it to the acquirer, which takes a few seconds here.
  await approve(refundId);
  await reloadUntilCurrent(page, "Sent to your card's bank");
  const sent = await stagesOf(page);
  expect(sent.map((s) => [s.label, s.time !== null])).toEqual([
    ['Refund requested', true],
    ['Approved', true],
    ["Sent to your card's bank", true],
    ['Refunded', false],
  ]);
  expect(new Date(sent[0].time!).getTime()).toBeLessThanOrEqual(new Date(sent[1].time!).getTime());
  expect(new Date(sent[1].time!).getTime()).toBeLessThanOrEqual(new Date(sent[2].time!).getTime());
  expect(await page.getByText('2 to 3 business days').isVisible()).toBe(true);
  await expectWellFormed(page, 'refund-sent');

  await reloadUntilCurrent(page, 'Refunded');
  expect((await stagesOf(page)).every((s) => s.time !== null)).toBe(true);
  expect(await page.getByText(/^Bank reference: sim_re_[0-9a-f]{24}$/).isVisible()).toBe(true);
  expect(await page.getByText('Amount refunded').isVisible()).toBe(true);
  expect(await page.getByText(/5 to 10 business days/).isVisible()).toBe(true);
  await expectWellFormed(page, 'refund-completed');

  // The refund notice brings the customer back to the same page.
  expect(await linkFromMail(email, /^Your refund from Corner Bakery$/)).toBe(link);
});

test('a refund the card\'s bank refuses: the page says it failed, when, and to contact the shop', async () => {
  const { email, paymentId, refundId } = await refundRequested();
  // An authorization the acquirer does not know: it declines the refund (unknown_authorization).
  await service.em().execute(`update "payments" set "processor_reference" = 'elsewhere_1' where "id" = ?`, [paymentId]);
  const link = await linkFromMail(email, /asked to refund your payment/);
  await approve(refundId);
  const page = customer!.page;
  await page.goto(link);
  await reloadUntilCurrent(page, 'Refund failed');
  expect((await stagesOf(page)).map((s) => [s.label, s.time !== null])).toEqual([
    ['Refund requested', true],
    ['Approved', true],
    ["Sent to your card's bank", true],
    ['Refund failed', true],
  ]);
  expect(await page.getByText(/did not go through, so no money went back to your card/).isVisible()).toBe(true);
  expect(await page.locator('body').textContent()).not.toContain('unknown_authorization');
  expect(await page.getByText(/It works until/).isVisible()).toBe(true);
  await expectWellFormed(page, 'refund-failed');
});

test('the request mail with its link reads well at 375 px, fetching nothing (axe-core)', async () => {
  const { email } = await refundRequested();
  const [mail] = await smtp.waitFor((m) => m.envelopeTo.includes(email) && /asked to refund your payment/.test(m.parsed.subject ?? ''));
  const page = customer!.page;
  const fetched: string[] = [];
  await page.route('**/*', (route) => (fetched.push(route.request().url()), route.abort()));
  await page.setContent(mail.parsed.html as string, { waitUntil: 'load' });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(WIDTH);
  expect(await page.getByRole('link', { name: 'Follow your refund' }).getAttribute('href')).toMatch(/^https:\/\/pay\.example\.test\/refunds\/[A-Za-z0-9_-]{43}$/);
  expect(await axeViolations(page)).toEqual([]);
  expect(fetched).toEqual([]);
  await page.screenshot({ path: path.join(SHOTS, 'refund-requested-mail.png'), fullPage: true });
});

test('a wrong link: the not-found page, which reads well too', async () => {
  const page = customer!.page;
  const answer = await page.goto(`${service.url}/refunds/not-a-real-link`);
  expect(answer?.status()).toBe(404);
  expect(await page.getByRole('heading', { level: 1, name: 'Refund not found' }).isVisible()).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(WIDTH);
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: path.join(SHOTS, 'refund-not-found.png'), fullPage: true });
});
