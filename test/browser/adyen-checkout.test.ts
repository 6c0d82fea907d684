import type { Page } from 'playwright-core';
import { LedgerEntry } from '../../src/modules/ledger/ledger-entry.entity';
import { Payment } from '../../src/modules/payments/payment.entity';
import { WebhookEvent } from '../../src/modules/webhooks/webhook-event.entity';
import { SHOPPER_MESSAGES } from '../../src/modules/checkout/failure-messages';
import { ADYEN_3DS_CARD, HOLDER, useAdyenStandIn } from '../support/adyen-stand-in';
import { axeViolations, createPayment, customerPage, fillCard, SHOP_ORIGIN, useBrowser, type CustomerPage } from '../support/browser';
import { useTestService } from '../support/test-service';

/** The service's public address in these tests (BASE_URL): the browser's requests to it are sent to the test service. */
const PUBLIC_ORIGIN = 'https://pay.example.test';

const adyen = useAdyenStandIn();
const service = useTestService(() => adyen.env(), 'adyen-browser');
const browser = useBrowser();
let apiKey: string;
let customer: CustomerPage;
let page: Page;

beforeAll(async () => {
  adyen.serviceUrl = service.url;
  apiKey = (await service.createShop({ shopName: 'Corner Bakery' })).apiKey;
});
beforeEach(async () => {
  customer = await customerPage(browser);
  page = customer.page;
  // The issuer sends the customer back to BASE_URL: that address is this test's service.
  await customer.context.route(`${PUBLIC_ORIGIN}/**`, (route) =>
    route.fulfill({ status: 302, headers: { location: route.request().url().replace(PUBLIC_ORIGIN, service.url) } }),
  );
});
afterEach(async () => {
  await customer.close();
  // A request the adapter sent that breaks Adyen's published schema fails the test that sent it.
  expect(adyen.violations).toEqual([]);
});

const reload = (id: string) => service.em().findOneOrFail(Payment, { id }, { refresh: true });

async function openAndPay(id: string, card: { number: string; name?: string }): Promise<void> {
  await page.goto(`${service.url}/checkout/${id}`);
  await page.getByRole('heading', { level: 1, name: /Corner Bakery/ }).waitFor();
  await fillCard(page, card);
  await page.getByRole('button', { name: /^Pay / }).click();
}

test('an approved card completes through the page with its journal and webhook event; back at the shop', async () => {
  const id = await createPayment(service, apiKey);
  await page.goto(`${service.url}/checkout/${id}`);
  await page.getByRole('heading', { level: 1, name: /Corner Bakery/ }).waitFor();
  // A real acquirer: no test-mode banner.
  expect(await page.getByText('Test mode: no real card is charged.').isHidden()).toBe(true);
  await openAndPay(id, { number: '4111111111111111', name: 'Ann Example' });
  await page.waitForURL(`${SHOP_ORIGIN}/**`);
  expect(page.url()).toContain('status=completed');
  expect((await reload(id)).status).toBe('completed');
  expect(await service.em().count(LedgerEntry, { paymentId: id })).toBe(4);
  expect(await service.em().count(WebhookEvent, { paymentId: id, type: 'payment.completed' })).toBe(1);
  // The page told Adyen about the screen for 3-D Secure 2.
  expect(adyen.requestsTo('/payments').find((r) => r.body.reference === id)!.body.browserInfo).toMatchObject({ screenWidth: 1024, screenHeight: 800 });
  expect(customer.problems).toEqual([]);
});

test('a refusal reaches the customer as its category only (a CVC refusal reads as a plain decline)', async () => {
  const id = await createPayment(service, apiKey);
  await openAndPay(id, { number: '4111111111111111', name: HOLDER.refuse('24') });
  await page.getByRole('alert').filter({ hasText: SHOPPER_MESSAGES.declined }).waitFor();
  expect((await reload(id)).status).toBe('failed');
});

test("3-D Secure: the page sends the customer to the issuer's page and back; it completes once, even when the return page loads twice", async () => {
  const id = await createPayment(service, apiKey);
  await openAndPay(id, { number: ADYEN_3DS_CARD });
  await page.waitForURL(`${adyen.url}/issuer/3ds**`);
  await page.getByRole('heading', { name: /Test bank/ }).waitFor();
  await page.getByRole('link', { name: 'Authenticate', exact: true }).click();
  await page.waitForURL(`${SHOP_ORIGIN}/**`);
  expect(page.url()).toContain('status=completed');
  const returnRequest = customer.requests.find((r) => r.url().includes('/3ds-return?') && r.url().includes('redirectResult='))!.url();

  // The customer loads the return address again (back button, reload): nothing more happens.
  await page.goto(returnRequest);
  await page.waitForURL(`${SHOP_ORIGIN}/**`);
  const payment = await reload(id);
  expect(payment.status).toBe('completed');
  expect(payment.threeDsOutcome).toBe('challenged');
  expect(await service.em().count(LedgerEntry, { paymentId: id })).toBe(4);
  expect(adyen.requestsTo('/payments/details')).toHaveLength(1);
  expect(customer.problems).toEqual([]);
});

test('3-D Secure: another browser that opens the payment while the bank confirms it is told to finish where the card was entered, and goes nowhere', async () => {
  const id = await createPayment(service, apiKey);
  await openAndPay(id, { number: ADYEN_3DS_CARD });
  await page.waitForURL(`${adyen.url}/issuer/3ds**`);

  const other = await customerPage(browser);
  try {
    await other.page.goto(`${service.url}/checkout/${id}`);
    await other.page.getByRole('heading', { name: 'Waiting for your bank' }).waitFor();
    await other.page.getByText('in the browser window where the card was entered').waitFor();
    // No loop, no way to the issuer: it stays on our page.
    await other.page.waitForTimeout(500);
    expect(new URL(other.page.url()).pathname).toBe(`/checkout/${id}`);
    expect(other.requests.filter((r) => r.url().includes('/issuer/'))).toEqual([]);
    expect((await axeViolations(other.page)).map((v) => v.id)).toEqual([]);
    if (process.env.CHECKOUT_SCREENSHOTS) await other.page.screenshot({ path: `${process.env.CHECKOUT_SCREENSHOTS}/checkout-waiting-for-bank.png` });
  } finally {
    await other.context.close();
  }
  // The customer's own challenge is untouched.
  await page.getByRole('link', { name: 'Authenticate', exact: true }).click();
  await page.waitForURL(`${SHOP_ORIGIN}/**`);
  expect((await reload(id)).status).toBe('completed');
});
