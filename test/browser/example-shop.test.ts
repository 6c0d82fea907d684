import { axeViolations, CARD_EXPIRY, useBrowserService } from '../support/browser';
import { startExample, type ExampleProcess } from '../support/example-shop';

/**
 * examples/seller-shop.mjs as a developer runs it at home, with its defaults, and a customer in Chromium: the shop's
 * /buy sends them to the checkout, they pay (or cancel), and the checkout brings them back to the shop's own /thanks on
 * this machine, which asks the API what became of the payment. The example's return_url is https://localhost:<port>:
 * in test mode the checkout follows it over http (docs/decisions/0023-local-return-in-test-mode.md).
 */
const web = useBrowserService();
/** The service's public address in these tests (BASE_URL): the browser's requests to it go to the test service. */
const PUBLIC_ORIGIN = 'https://pay.example.test';
let example: ExampleProcess;
let port: string;

beforeAll(async () => {
  const shop = await web.service.createShop({ shopName: 'Corner Bakery' });
  example = await startExample({ API_KEY: shop.apiKey, WEBHOOK_SECRET: shop.webhookSecret, API_BASE: web.service.url });
  port = new URL(example.url).port;
});
afterAll(() => example?.stop());

beforeEach(async () => {
  // The checkout_url the example redirects to names BASE_URL: that address is this test's service. (A route sees only
  // the first request of a redirect, so the example's own answer is the one rewritten.)
  await web.page.context().route(`${example.url}/buy?**`, async (route) => {
    const answer = await route.fetch({ maxRedirects: 0 });
    await route.fulfill({ response: answer, headers: { ...answer.headers(), location: answer.headers().location.replace(PUBLIC_ORIGIN, web.service.url) } });
  });
});

async function buy(order: string): Promise<string> {
  await web.page.goto(`${example.url}/buy?amount=2500&order=${order}`);
  await web.page.getByRole('heading', { level: 1, name: /Corner Bakery/ }).waitFor();
  const paymentId = /\/checkout\/(pay_[0-9A-Za-z]{24})$/.exec(web.page.url())![1];
  expect(await axeViolations(web.page)).toEqual([]);
  return paymentId;
}

test('pay on the checkout, and the example\'s own /thanks on this machine runs: it retrieved the payment, completed', async () => {
  expect(example.output()).toContain(`"return_url":"https://localhost:${port}/thanks"`);
  const paymentId = await buy('H-1');
  await web.page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await web.page.getByLabel('Expiry date').fill(CARD_EXPIRY);
  await web.page.getByLabel('Security code').fill('123');
  await web.page.getByRole('button', { name: 'Pay $25.00' }).click();

  await web.page.waitForURL(`http://localhost:${port}/thanks?**`);
  expect(web.page.url()).toBe(`http://localhost:${port}/thanks?payment_id=${paymentId}&status=completed`);
  expect((await web.page.locator('body').innerText()).trim()).toBe(`Payment ${paymentId} is completed.`);
  expect(web.customer.problems).toEqual([]);
});

test('cancel on the checkout, and the example\'s /thanks says the payment is still pending', async () => {
  const paymentId = await buy('H-2');
  await web.page.getByRole('button', { name: 'Cancel and return to Corner Bakery' }).click();

  await web.page.waitForURL(`http://localhost:${port}/thanks?**`);
  expect(web.page.url()).toBe(`http://localhost:${port}/thanks?payment_id=${paymentId}&status=cancelled`);
  expect((await web.page.locator('body').innerText()).trim()).toBe(`Payment ${paymentId} is pending.`);
});
