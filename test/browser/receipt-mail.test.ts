import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { AdminRole } from '../../src/modules/admins/admin-role';
import { adminClient } from '../support/admin-client';
import { NOTIFICATION_TOPICS } from '../../src/modules/notifications/mail-kinds';
import { setMailSettings } from '../../src/modules/notifications/mail-settings';
import { axeViolations, useBrowser } from '../support/browser';
import { checkoutClient } from '../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../support/seller-client';
import { useSmtpSink, type SunkMail } from '../support/smtp-sink';
import { useTestService } from '../support/test-service';

/**
 * The receipt and refund notice as a mail program shows them: the HTML of real mails (sent by the service to an SMTP
 * server on loopback, parsed with mailparser) rendered in Chromium at 320 px and 800 px, with nothing fetched from
 * anywhere, checked with axe-core (WCAG 2.2 AA). Screenshots go to RECEIPT_SCREENSHOTS (a directory; a temporary one
 * otherwise); with UPDATE_DOC_IMAGES=1 the 480 px receipt becomes docs/images/receipt.png, the picture in
 * docs/integrate.md.
 */
const SHOTS = process.env.RECEIPT_SCREENSHOTS ?? fs.mkdtempSync(path.join(os.tmpdir(), 'receipt-shots-'));
const DOC_IMAGE = path.join(__dirname, '../../docs/images/receipt.png');

const smtp = useSmtpSink();
const service = useTestService(() => ({ SMTP_URL: smtp.url, MAIL_POLL_INTERVAL_MS: '100' }));
const browser = useBrowser();
let receipt: SunkMail;
beforeAll(async () => {
  const shop = await service.createShop({ shopName: 'Corner Bakery' });
  await setMailSettings(service.em(), shop.seller.id, 'hello@cornerbakery.example', NOTIFICATION_TOPICS);
  const created = await sellerClient(service.url, shop.apiKey).create({ ...VALID_PAYMENT, amount: 4250, customer_email: 'ann@example.com', customer_name: 'Ann Example' });
  await checkoutClient(service.url).pay(created.body.data.id, '4242424242424242');
  [receipt] = await smtp.waitFor((m) => m.envelopeTo.includes('ann@example.com') && /receipt/.test(m.parsed.subject ?? ''));
}, 120_000);

/** A page showing `html` as a mail program would: no network at all (every request is recorded and refused). */
async function mailPage(html: string, width: number, height = 900): Promise<{ page: Page; requests: string[] }> {
  const context = await browser.newContext({ viewport: { width, height }, javaScriptEnabled: true });
  const requests: string[] = [];
  await context.route('**/*', (route) => {
    requests.push(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  await page.setContent(html, { waitUntil: 'load' });
  return { page, requests };
}

describe.each([320, 800])('the receipt at %i px', (width) => {
  test('reads whole, without sideways scrolling, fetching nothing, with no WCAG 2.2 AA violation', async () => {
    const { page, requests } = await mailPage(receipt.parsed.html as string, width);
    try {
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Corner Bakery');
      await expect(page.getByText('$42.50 (USD)').isVisible()).resolves.toBe(true);
      await expect(page.getByText('Visa ending in 4242').isVisible()).resolves.toBe(true);
      await expect(page.getByRole('link', { name: 'hello@cornerbakery.example' }).getAttribute('href')).resolves.toBe('mailto:hello@cornerbakery.example');
      // Every label and value inside the page: nothing cut off at the right edge.
      const overflowing = await page.evaluate(() => Array.from(document.querySelectorAll('dd, h1, p')).filter((e) => e.getBoundingClientRect().right > window.innerWidth).map((e) => e.textContent));
      expect(overflowing).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      expect(requests).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, `receipt-${width}.png`), fullPage: true });
    } finally {
      await page.context().close();
    }
  });
});

test('the refund notice reads well at 320 px and 800 px too (axe-core)', async () => {
  // Refunded as support and finance do it; the refund job carries it out and the mail workers send the notice.
  const [{ id: paymentId }] = await service.em().execute<{ id: string }[]>(`select "id" from "payments" where "customer_email" = 'ann@example.com' order by "created_at" desc limit 1`);
  const support = await adminClient(service, AdminRole.SUPPORT);
  const finance = await adminClient(service, AdminRole.FINANCE);
  const refundId = (await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "customer asked", amount: 1250) { id } }`, { p: paymentId })).requestRefund.id;
  await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: refundId });
  const [notice] = await smtp.waitFor((m) => m.envelopeTo.includes('ann@example.com') && /^Your refund from/.test(m.parsed.subject ?? ''));
  const html = notice.parsed.html as string;
  expect(html).toContain('$12.50 (USD)');
  for (const width of [320, 800]) {
    const { page, requests } = await mailPage(html, width);
    try {
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
      expect(await axeViolations(page)).toEqual([]);
      expect(requests).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, `refund-notice-${width}.png`), fullPage: true });
    } finally {
      await page.context().close();
    }
  }
});

test('the picture in docs/integrate.md is a receipt at 480 px (written with UPDATE_DOC_IMAGES=1)', async () => {
  const { page } = await mailPage(receipt.parsed.html as string, 480, 200);
  try {
    const shot = await page.screenshot({ fullPage: true });
    fs.writeFileSync(path.join(SHOTS, 'receipt-480.png'), shot);
    if (process.env.UPDATE_DOC_IMAGES === '1') fs.writeFileSync(DOC_IMAGE, shot);
    // The picture is small, and it is there.
    expect(fs.statSync(DOC_IMAGE).size).toBeLessThan(100_000);
  } finally {
    await page.context().close();
  }
});
