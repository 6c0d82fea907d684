import { Seller, SellerStatus } from '../../src/modules/identity/seller.entity';
import { axeViolations, createPayment, fillCard, useBrowserService, type AxeViolation } from '../support/browser';
import { checkoutClient } from '../support/checkout-client';

/** axe-core, run inside the page, finds no WCAG 2.2 AA violation on any screen of the checkout. */
const web = useBrowserService();
let apiKey: string;

beforeAll(async () => {
  apiKey = (await web.service.createShop({ shopName: 'Corner Bakery' })).apiKey;
});

/** Violations as one readable line each, so a failure names the rule and the element. */
const summary = (violations: AxeViolation[]) =>
  violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${v.help} at ${n.target.join(' ')}`));

async function expectNoViolations(): Promise<void> {
  expect(summary(await axeViolations(web.page))).toEqual([]);
}

async function openCheckout(id: string): Promise<void> {
  await web.page.goto(`${web.service.url}/checkout/${id}`);
  await web.page.getByRole('heading', { level: 1, name: /Corner Bakery/ }).waitFor();
}

describe('WCAG 2.2 AA (axe-core) on every screen of the checkout', () => {
  test('the card form', async () => {
    await openCheckout(await createPayment(web.service, apiKey));
    await web.page.getByRole('button', { name: /^Pay / }).waitFor();
    await expectNoViolations();
  });

  test('the card form showing errors', async () => {
    await openCheckout(await createPayment(web.service, apiKey));
    await fillCard(web.page, { number: '1234', expiry: '13/99', securityCode: '1' });
    await web.page.getByRole('button', { name: /^Pay / }).click();
    await web.page.getByRole('alert').filter({ hasText: 'card number' }).waitFor();
    await expectNoViolations();
  });

  test('the card form showing the card\'s brand, and the security code that brand asks for, wrong', async () => {
    await openCheckout(await createPayment(web.service, apiKey));
    await fillCard(web.page, { number: '3782 822463 10005', securityCode: '123' });
    await web.page.getByRole('img', { name: 'American Express' }).waitFor();
    await expectNoViolations();
    await web.page.getByRole('button', { name: /^Pay / }).click();
    await web.page.getByRole('alert').filter({ hasText: '4-digit security code' }).waitFor();
    await expectNoViolations();
  });

  test('the card form on a 360 px phone screen', async () => {
    await web.page.setViewportSize({ width: 360, height: 740 });
    await openCheckout(await createPayment(web.service, apiKey));
    await web.page.getByRole('button', { name: /^Pay / }).waitFor();
    await expectNoViolations();
  });

  test('the 3-D Secure step', async () => {
    await openCheckout(await createPayment(web.service, apiKey));
    await fillCard(web.page, { number: '4000000000003220' });
    await web.page.getByRole('button', { name: /^Pay / }).click();
    await web.page.getByRole('button', { name: 'Complete authentication' }).waitFor();
    await expectNoViolations();
  });

  test('the failed outcome', async () => {
    await openCheckout(await createPayment(web.service, apiKey));
    await fillCard(web.page, { number: '4000000000000002' });
    await web.page.getByRole('button', { name: /^Pay / }).click();
    await web.page.getByRole('heading', { name: 'Payment failed' }).waitFor();
    await expectNoViolations();
  });

  test('the completed outcome', async () => {
    const id = await createPayment(web.service, apiKey);
    await checkoutClient(web.service.url).pay(id, '4242424242424242');
    await openCheckout(id);
    await web.page.getByRole('heading', { name: 'Payment complete' }).waitFor();
    await expectNoViolations();
  });

  test('the page of a shop that cannot take payments', async () => {
    const shop = await web.service.createShop({ shopName: 'Corner Bakery' });
    const id = await createPayment(web.service, shop.apiKey);
    await web.service.em().nativeUpdate(Seller, { id: shop.seller.id }, { status: SellerStatus.SUSPENDED });
    await web.page.goto(`${web.service.url}/checkout/${id}`);
    await web.page.getByRole('heading', { name: 'This shop cannot take payments right now' }).waitFor();
    await expectNoViolations();
  });

  test('the 404 page', async () => {
    await web.page.goto(`${web.service.url}/checkout/pay_000000000000000000000000`);
    await web.page.getByRole('heading', { name: 'Payment not found' }).waitFor();
    await expectNoViolations();
  });

  test('the focus ring is visible on every control', async () => {
    await openCheckout(await createPayment(web.service, apiKey));
    await web.page.getByRole('button', { name: /^Pay / }).waitFor();
    const rings: Record<string, string> = {};
    for (let i = 0; i < 6; i++) {
      await web.page.keyboard.press('Tab');
      const [id, outline] = await web.page.evaluate(() => {
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
