import { Payment } from '../../src/modules/payments/payment.entity';
import type { SimulatedAcquirer } from '../../src/platform/processor/simulated-acquirer';
import { Seller, SellerStatus } from '../../src/modules/identity/seller.entity';
import { CARD_EXPIRY, createPayment, fillCard, RETURN_URL, SHOP_ORIGIN, useBrowserService } from '../support/browser';
import { checkoutClient } from '../support/checkout-client';
import { SHOPPER_MESSAGES } from '../../src/modules/checkout/failure-messages';
import { sellerClient } from '../support/seller-client';

const web = useBrowserService();
let apiKey: string;

beforeAll(async () => {
  apiKey = (await web.service.createShop({ shopName: 'Corner Bakery' })).apiKey;
});

const seller = () => sellerClient(web.service.url, apiKey);
const checkoutUrl = (id: string) => `${web.service.url}/checkout/${id}`;
const returnedWith = (id: string, status: string) => `${RETURN_URL}&payment_id=${id}&status=${status}`;

async function openCheckout(id: string): Promise<void> {
  await web.page.goto(checkoutUrl(id));
  await web.page.getByRole('heading', { level: 1, name: /Corner Bakery/ }).waitFor();
}

const payButton = () => web.page.getByRole('button', { name: /^Pay / });

async function pay(number: string): Promise<void> {
  await fillCard(web.page, { number });
  await payButton().click();
}

async function backAtTheShop(): Promise<string> {
  await web.page.waitForURL(`${SHOP_ORIGIN}/**`);
  return web.page.url();
}

async function restStatus(id: string) {
  const res = await seller().retrieve(id);
  expect(res.status).toBe(200);
  return res.body.data as { status: string; completed_at: string | null };
}

async function expectNoCardForm(): Promise<void> {
  expect(await web.page.getByLabel('Card number').isVisible()).toBe(false);
  expect(await payButton().count()).toBe(0);
}

describe('a customer pays on the hosted checkout page', () => {
  test('the page shows the shop, the amount as money and a card form labelled for people and screen readers', async () => {
    const id = await createPayment(web.service, apiKey, { amount: 1234 });
    await openCheckout(id);
    expect(await web.page.getByRole('heading', { level: 1 }).innerText()).toMatch(/Corner Bakery/);
    expect(await web.page.getByText('$12.34', { exact: true }).isVisible()).toBe(true);
    for (const label of ['Card number', 'Expiry date', 'Security code', 'Name on card']) {
      expect(await web.page.getByLabel(label).isVisible()).toBe(true);
    }
    expect(await web.page.getByLabel('Card number').getAttribute('autocomplete')).toBe('cc-number');
    expect(await web.page.getByLabel('Expiry date').getAttribute('autocomplete')).toBe('cc-exp');
    expect(await web.page.getByLabel('Security code').getAttribute('autocomplete')).toBe('cc-csc');
    expect(await web.page.getByLabel('Name on card').getAttribute('autocomplete')).toBe('cc-name');
    expect(await web.page.getByLabel('Card number').getAttribute('inputmode')).toBe('numeric');
    expect(await web.page.getByRole('button', { name: 'Pay $12.34' }).isVisible()).toBe(true);
    expect(await web.page.getByRole('button', { name: /Cancel/ }).isVisible()).toBe(true);
    expect(await web.page.getByRole('main').count()).toBe(1);
    expect(await web.page.locator('html').getAttribute('lang')).toBe('en');
  });

  test('with 4242 4242 4242 4242 the payment completes and the browser returns to the shop with payment_id and status', async () => {
    const id = await createPayment(web.service, apiKey);
    await openCheckout(id);
    await fillCard(web.page, { number: '4242 4242 4242 4242', name: 'Ann Example' });
    await payButton().click();
    expect(await backAtTheShop()).toBe(returnedWith(id, 'completed'));
    const payment = await restStatus(id);
    expect(payment.status).toBe('completed');
    expect(payment.completed_at).not.toBeNull();
    expect(web.customer.graphqlOperations()).toEqual(['CheckoutPayment', 'SubmitCard']);
    expect(web.customer.problems).toEqual([]);
  });

  test('a card that needs 3-D Secure shows the challenge on the same page; completing it completes the payment', async () => {
    const id = await createPayment(web.service, apiKey);
    await openCheckout(id);
    await pay('4000 0000 0000 3220');
    const challenge = web.page.getByRole('heading', { name: 'Confirm this payment with your bank' });
    await challenge.waitFor();
    expect(await challenge.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(web.page.frames()).toHaveLength(1);
    expect(await web.page.getByLabel('Card number').isVisible()).toBe(false);
    await web.page.getByRole('button', { name: 'Complete authentication' }).click();
    expect(await backAtTheShop()).toBe(returnedWith(id, 'completed'));
    expect((await restStatus(id)).status).toBe('completed');
  });

  test('failing 3-D Secure fails the payment and says so', async () => {
    const id = await createPayment(web.service, apiKey);
    await openCheckout(id);
    await pay('4000 0000 0000 3220');
    await web.page.getByRole('button', { name: 'Fail authentication' }).click();
    const alert = web.page.getByRole('alert');
    await alert.filter({ hasText: SHOPPER_MESSAGES.authentication_failed }).waitFor();
    expect(await alert.innerText()).toBe(SHOPPER_MESSAGES.authentication_failed);
    expect(await web.page.getByRole('heading', { name: 'Payment failed' }).isVisible()).toBe(true);
    expect(await web.page.getByRole('button', { name: /authentication/ }).count()).toBe(0);
    expect((await restStatus(id)).status).toBe('failed');
  });

  test.each([
    ['4000 0000 0000 0002', 'card_declined', SHOPPER_MESSAGES.declined],
    ['4000 0000 0000 9995', 'insufficient_funds', SHOPPER_MESSAGES.declined],
    ['4000 0000 0000 0069', 'expired_card', SHOPPER_MESSAGES.declined],
    ['4000 0000 0000 0127', 'incorrect_cvc', SHOPPER_MESSAGES.declined],
    ['4000 0000 0000 0119', 'processing_error', SHOPPER_MESSAGES.processing_error],
    ['4100 0000 0000 0019', 'fraudulent', SHOPPER_MESSAGES.declined],
  ])('%s (%s) fails with only its category in plain words, no form, and the payment is failed', async (number, _code, message) => {
    const id = await createPayment(web.service, apiKey);
    await openCheckout(id);
    await pay(number);
    const alert = web.page.getByRole('alert').filter({ hasText: message });
    await alert.waitFor();
    expect(await alert.innerText()).toBe(message);
    await expectNoCardForm();
    const back = web.page.getByRole('link', { name: 'Return to Corner Bakery' });
    expect(await back.getAttribute('href')).toBe(returnedWith(id, 'failed'));
    expect(web.page.url()).toBe(checkoutUrl(id));
    expect((await restStatus(id)).status).toBe('failed');
  });

  test('4000 0084 0000 1629 passes 3-D Secure and is then declined', async () => {
    const id = await createPayment(web.service, apiKey);
    await openCheckout(id);
    await pay('4000 0084 0000 1629');
    await web.page.getByRole('button', { name: 'Complete authentication' }).click();
    await web.page.getByRole('alert').filter({ hasText: 'declined' }).waitFor();
    await expectNoCardForm();
    expect((await restStatus(id)).status).toBe('failed');
  });

  test('Cancel returns to the shop with status=cancelled and the payment stays pending', async () => {
    const id = await createPayment(web.service, apiKey);
    await openCheckout(id);
    await web.page.getByRole('button', { name: /Cancel/ }).click();
    expect(await backAtTheShop()).toBe(returnedWith(id, 'cancelled'));
    expect((await restStatus(id)).status).toBe('pending');
    expect(web.customer.graphqlOperations()).toEqual(['CheckoutPayment', 'CancelCheckout']);
  });

  test('only the keyboard: Tab moves through the fields in order, Enter pays', async () => {
    const id = await createPayment(web.service, apiKey);
    await openCheckout(id);
    const focused = () => web.page.evaluate(() => document.activeElement?.id ?? '');
    const order: string[] = [];
    for (const text of ['4242424242424242', CARD_EXPIRY, '123', 'Ann Example']) {
      await web.page.keyboard.press('Tab');
      order.push(await focused());
      await web.page.keyboard.type(text);
    }
    await web.page.keyboard.press('Tab');
    order.push(await focused());
    await web.page.keyboard.press('Tab');
    order.push(await focused());
    expect(order).toEqual(['card-number', 'card-expiry', 'card-code', 'card-name', 'pay', 'cancel']);
    await web.page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('pay');
    await web.page.keyboard.press('Enter');
    expect(await backAtTheShop()).toBe(returnedWith(id, 'completed'));
  });

  test('pressing Enter in a field submits the form too', async () => {
    const id = await createPayment(web.service, apiKey);
    await openCheckout(id);
    await fillCard(web.page, { number: '4242424242424242' });
    await web.page.getByLabel('Security code').press('Enter');
    expect(await backAtTheShop()).toBe(returnedWith(id, 'completed'));
  });

  test('revisiting a paid page shows that it was paid, a link back to the shop, and no form', async () => {
    const id = await createPayment(web.service, apiKey);
    expect((await checkoutClient(web.service.url).pay(id, '4242424242424242')).body.data.submitCard.status).toBe('COMPLETED');
    await openCheckout(id);
    await web.page.getByRole('heading', { name: 'Payment complete' }).waitFor();
    expect(await web.page.getByText('This payment has been completed.').isVisible()).toBe(true);
    expect(await web.page.getByRole('link', { name: 'Return to Corner Bakery' }).getAttribute('href')).toBe(returnedWith(id, 'completed'));
    await expectNoCardForm();
    expect(await web.page.getByRole('button', { name: /Cancel/ }).count()).toBe(0);
    expect(web.page.url()).toBe(checkoutUrl(id));
  });

  test('revisiting a failed payment shows why it failed and no form', async () => {
    const id = await createPayment(web.service, apiKey);
    await checkoutClient(web.service.url).pay(id, '4000000000000002');
    await openCheckout(id);
    await web.page.getByRole('alert').filter({ hasText: 'declined' }).waitFor();
    await expectNoCardForm();
  });

  test('opening a payment past its expiry says the link has expired, offers the way back, and shows no form (docs/checkout.md, "Expiry")', async () => {
    const id = await createPayment(web.service, apiKey);
    await web.service.em().getConnection().execute(`update payments set created_at = now() - interval '25 hours' where id = ?`, [id]);
    await openCheckout(id);
    await web.page.getByRole('heading', { name: 'This payment link has expired' }).waitFor();
    expect(await web.page.getByText(/can no longer be paid, and your card has not been charged/).isVisible()).toBe(true);
    expect(await web.page.getByRole('link', { name: 'Return to Corner Bakery' }).getAttribute('href')).toBe(returnedWith(id, 'failed'));
    expect(await web.page.getByRole('alert').filter({ hasText: 'declined' }).count()).toBe(0);
    await expectNoCardForm();
  });

  test('reopening a payment waiting for 3-D Secure shows the challenge again', async () => {
    const id = await createPayment(web.service, apiKey);
    await checkoutClient(web.service.url).pay(id, '4000000000003220');
    await openCheckout(id);
    await web.page.getByRole('button', { name: 'Complete authentication' }).click();
    expect(await backAtTheShop()).toBe(returnedWith(id, 'completed'));
  });
});

describe('a shop that cannot take payments (inactive or deleted shop, suspended or inactive seller)', () => {
  const UNAVAILABLE = 'This shop cannot take payments right now';
  const calls = (id: string) => (web.service.services.checkout.processor as SimulatedAcquirer).calls.filter((call) => call.subject === id);

  async function suspendedShopPayment() {
    const shop = await web.service.createShop({ shopName: 'Corner Bakery' });
    const id = await createPayment(web.service, shop.apiKey);
    const suspend = () => web.service.em().nativeUpdate(Seller, { id: shop.seller.id }, { status: SellerStatus.SUSPENDED });
    return { id, suspend };
  }

  test('opening the page of a suspended seller shows a clear page with the way back, and no card form', async () => {
    const { id, suspend } = await suspendedShopPayment();
    await suspend();
    await openCheckout(id);
    await web.page.getByRole('heading', { name: UNAVAILABLE }).waitFor();
    expect(await web.page.getByText('Your card has not been charged.', { exact: false }).isVisible()).toBe(true);
    await expectNoCardForm();
    await web.page.getByRole('link', { name: 'Return to Corner Bakery' }).click();
    expect(await backAtTheShop()).toBe(returnedWith(id, 'cancelled'));
  });

  test('a seller suspended after the page opened: paying shows the same page, and the acquirer was never called', async () => {
    const { id, suspend } = await suspendedShopPayment();
    await openCheckout(id);
    await suspend();
    await pay('4242 4242 4242 4242');
    await web.page.getByRole('heading', { name: UNAVAILABLE }).waitFor();
    expect(await web.page.getByRole('link', { name: 'Return to Corner Bakery' }).getAttribute('href')).toBe(returnedWith(id, 'cancelled'));
    await expectNoCardForm();
    expect(calls(id)).toEqual([]);
    expect((await web.service.em().findOneOrFail(Payment, id)).status).toBe('pending');
  });
});
