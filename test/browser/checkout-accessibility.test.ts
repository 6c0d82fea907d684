import type { Browser, Page } from 'playwright-core';
import { Seller, SellerStatus } from '../../src/shops/seller.entity';
import { axeViolations, createPayment, customerPage, fillCard, launchBrowser, type AxeViolation, type CustomerPage } from '../support/browser';
import { checkoutClient } from '../support/checkout-client';
import { startTestService, type TestService } from '../support/test-service';

/** axe-core, run inside the page, finds no WCAG 2.2 AA violation on any screen of the checkout. */
let service: TestService;
let browser: Browser;
let apiKey: string;
let customer: CustomerPage;
let page: Page;

beforeAll(async () => {
  [service, browser] = await Promise.all([startTestService(), launchBrowser()]);
  apiKey = (await service.createShop({ shopName: 'Corner Bakery' })).apiKey;
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});
beforeEach(async () => {
  customer = await customerPage(browser);
  page = customer.page;
  page.setDefaultTimeout(10_000);
});
afterEach(() => customer.close());

/** Violations as one readable line each, so a failure names the rule and the element. */
const summary = (violations: AxeViolation[]) =>
  violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${v.help} at ${n.target.join(' ')}`));

async function expectNoViolations(): Promise<void> {
  expect(summary(await axeViolations(page))).toEqual([]);
}

async function openCheckout(id: string): Promise<void> {
  await page.goto(`${service.url}/checkout/${id}`);
  await page.getByRole('heading', { level: 1, name: /Corner Bakery/ }).waitFor();
}

describe('WCAG 2.2 AA (axe-core) on every screen of the checkout', () => {
  test('the card form', async () => {
    await openCheckout(await createPayment(service, apiKey));
    await page.getByRole('button', { name: /^Pay / }).waitFor();
    await expectNoViolations();
  });

  test('the card form showing errors', async () => {
    await openCheckout(await createPayment(service, apiKey));
    await fillCard(page, { number: '1234', expiry: '13/99', securityCode: '1' });
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('alert').filter({ hasText: 'card number' }).waitFor();
    await expectNoViolations();
  });

  test('the card form on a 360 px phone screen', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await openCheckout(await createPayment(service, apiKey));
    await page.getByRole('button', { name: /^Pay / }).waitFor();
    await expectNoViolations();
  });

  test('the 3-D Secure step', async () => {
    await openCheckout(await createPayment(service, apiKey));
    await fillCard(page, { number: '4000000000003220' });
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('button', { name: 'Complete authentication' }).waitFor();
    await expectNoViolations();
  });

  test('the failed outcome', async () => {
    await openCheckout(await createPayment(service, apiKey));
    await fillCard(page, { number: '4000000000000002' });
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByRole('heading', { name: 'Payment failed' }).waitFor();
    await expectNoViolations();
  });

  test('the completed outcome', async () => {
    const id = await createPayment(service, apiKey);
    await checkoutClient(service.url).pay(id, '4242424242424242');
    await openCheckout(id);
    await page.getByRole('heading', { name: 'Payment complete' }).waitFor();
    await expectNoViolations();
  });

  test('the page of a shop that cannot take payments', async () => {
    const shop = await service.createShop({ shopName: 'Corner Bakery' });
    const id = await createPayment(service, shop.apiKey);
    await service.em().nativeUpdate(Seller, { id: shop.seller.id }, { status: SellerStatus.SUSPENDED });
    await page.goto(`${service.url}/checkout/${id}`);
    await page.getByRole('heading', { name: 'This shop cannot take payments right now' }).waitFor();
    await expectNoViolations();
  });

  test('the 404 page', async () => {
    await page.goto(`${service.url}/checkout/pay_000000000000000000000000`);
    await page.getByRole('heading', { name: 'Payment not found' }).waitFor();
    await expectNoViolations();
  });

  test('the focus ring is visible on every control', async () => {
    await openCheckout(await createPayment(service, apiKey));
    await page.getByRole('button', { name: /^Pay / }).waitFor();
    const rings: Record<string, string> = {};
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      const [id, outline] = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const style = getComputedStyle(el);
        return [el.id, `${style.outlineStyle} ${style.outlineWidth}`];
      });
      rings[id] = outline;
    }
    expect(rings).toEqual({
      'card-number': 'solid 3px',
      'card-expiry': 'solid 3px',
      'card-code': 'solid 3px',
      'card-name': 'solid 3px',
      pay: 'solid 3px',
      cancel: 'solid 3px',
    });
  });
});
