import { Client } from 'pg';
import { CARD_EXPIRY, createPayment, customerPage, fillCard, RETURN_URL, SHOP_ORIGIN, useBrowserService } from '../support/browser';
import { checkoutClient } from '../support/checkout-client';
import { sellerClient } from '../support/seller-client';
import { testRun } from '../support/test-env';

/**
 * The page around the happy paths: checks before sending, hostile text, narrow screens, what it loads,
 * and how it shows slow or refused requests. The service's simulated acquirer takes a second here, so
 * the processing state can be seen, and each shop may submit one card per window (to see a refusal).
 * A completion may wait on a row a test holds for longer than the usual statement time-out.
 */
const ACQUIRER_MS = 1000;

const web = useBrowserService({ SIMULATED_ACQUIRER_DELAY_MS: String(ACQUIRER_MS), CHECKOUT_SUBMISSIONS_PER_SHOP: '1', DATABASE_STATEMENT_TIMEOUT_MS: '60000' });

/** Each test its own shop, so the one-submission-per-shop limit only bites where a test wants it. */
async function newPayment(shopName = 'Corner Bakery', body: Record<string, unknown> = {}): Promise<{ id: string; apiKey: string }> {
  const { apiKey } = await web.service.createShop({ shopName });
  return { id: await createPayment(web.service, apiKey, body), apiKey };
}

/** Locks the payment's row once it is processing, so that its completion waits (reads still see it) until released. */
async function holdWhileProcessing(id: string): Promise<() => Promise<void>> {
  const holder = new Client({ connectionString: testRun().databaseUrl });
  await holder.connect();
  await holder.query('begin');
  for (let tries = 0; tries < 500; tries++) {
    const held = await holder.query(`select 1 from "payments" where "id" = $1 and "checkout_stage" = 'processing' for update`, [id]);
    if (held.rowCount) return async () => void (await holder.query('commit'), await holder.end());
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await holder.end();
  throw new Error(`payment ${id} never showed as processing`);
}

async function openCheckout(id: string): Promise<void> {
  await web.page.goto(`${web.service.url}/checkout/${id}`);
  await web.page.getByRole('button', { name: /^Pay / }).waitFor();
}

const invalid = (label: string) => web.page.getByLabel(label).getAttribute('aria-invalid');
/** The text of the elements that describe a field (aria-describedby), as a screen reader reads them. */
const description = (label: string) =>
  web.page.getByLabel(label).evaluate((input) =>
    (input.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id))
      .filter((el): el is HTMLElement => el !== null && !el.hidden)
      .map((el) => el.textContent)
      .join(' '),
  );
const focusedId = () => web.page.evaluate(() => document.activeElement?.id ?? '');

describe('the checkout page catches bad input before sending anything', () => {
  test.each([
    ['a number that fails the Luhn check', { number: '4242 4242 4242 4241' }, 'Card number', /valid card number/, 'card-number'],
    ['an expiry date in the past', { number: '4242 4242 4242 4242', expiry: '01/20' }, 'Expiry date', /expired/, 'card-expiry'],
    ['a two-digit security code', { number: '4242 4242 4242 4242', securityCode: '12' }, 'Security code', /3-digit security code from the back/, 'card-code'],
    ['an American Express with a three-digit code', { number: '3782 822463 10005', securityCode: '123' }, 'Security code', /4-digit security code from the front/, 'card-code'],
  ])('%s: the field is marked invalid, the error is announced and described, focus goes there, nothing is sent', async (_case, card, label, message, fieldId) => {
    const { id } = await newPayment();
    await openCheckout(id);
    await fillCard(web.page, card);
    await web.page.getByRole('button', { name: /^Pay / }).click();

    await web.page.getByRole('alert').filter({ hasText: message }).waitFor();
    expect(await invalid(label)).toBe('true');
    expect(await description(label)).toMatch(message);
    expect(await focusedId()).toBe(fieldId);
    for (const other of ['Card number', 'Expiry date', 'Security code'].filter((l) => l !== label)) expect(await invalid(other)).toBeNull();
    expect(web.customer.graphqlOperations()).toEqual(['CheckoutPayment']);
  });

  test('several errors at once: each field says what is wrong and focus goes to the first', async () => {
    const { id } = await newPayment();
    await openCheckout(id);
    await web.page.getByRole('button', { name: /^Pay / }).click();
    await web.page.getByRole('alert').filter({ hasText: 'card number' }).waitFor();
    expect([await invalid('Card number'), await invalid('Expiry date'), await invalid('Security code')]).toEqual(['true', 'true', 'true']);
    expect(await invalid('Name on card')).toBeNull();
    expect(await focusedId()).toBe('card-number');

    // Corrected, the form goes through and the marks go away.
    await fillCard(web.page, { number: '4242424242424242' });
    await web.page.getByRole('button', { name: /^Pay / }).click();
    await web.page.waitForURL(`${SHOP_ORIGIN}/**`);
    expect(web.customer.graphqlOperations()).toEqual(['CheckoutPayment', 'SubmitCard']);
  });
});

describe('the card number as it is typed', () => {
  /** Where to save screenshots of the form showing a brand, at 375 and 1280 px, to be looked at (unset: none). */
  const SCREENSHOTS = process.env.CARD_BRAND_SCREENSHOTS;
  const brand = (name: string) => web.page.getByRole('img', { name });
  const number = () => web.page.getByLabel('Card number');

  /** Types as a person does, one key at a time (fill() would skip what happens between keys). */
  async function typeNumber(digits: string): Promise<void> {
    await number().fill('');
    await number().pressSequentially(digits);
  }

  test('shows its brand, named, groups the digits as the card does, and asks for that brand\'s security code; nothing is sent', async () => {
    const { id } = await newPayment();
    await openCheckout(id);
    const requestsBefore = web.customer.requests.length;
    expect(await web.page.getByRole('img').count()).toBe(0);

    await typeNumber('37');
    await brand('American Express').waitFor();
    await typeNumber('378282246310005');
    expect(await number().inputValue()).toBe('3782 822463 10005');
    expect(await description('Card number')).toBe('American Express');
    expect(await description('Security code')).toBe('4 digits, on the front of the card');
    expect(await web.page.getByLabel('Security code').getAttribute('maxlength')).toBe('4');
    if (SCREENSHOTS) {
      for (const width of [375, 1280]) {
        await web.page.setViewportSize({ width, height: 900 });
        await web.page.screenshot({ path: `${SCREENSHOTS}/card-brand-amex-${width}.png`, fullPage: true });
      }
    }

    await typeNumber('4242424242424242');
    await brand('Visa').waitFor();
    expect(await brand('American Express').count()).toBe(0);
    expect(await number().inputValue()).toBe('4242 4242 4242 4242');
    expect(await description('Security code')).toBe('3 digits, on the back of the card');
    await web.page.getByLabel('Security code').pressSequentially('1234');
    expect(await web.page.getByLabel('Security code').inputValue()).toBe('123');

    for (const [digits, name, shown] of [['5555555555554444', 'Mastercard', '5555 5555 5555 4444'], ['2223003122003222', 'Mastercard', '2223 0031 2200 3222'], ['6011111111111117', 'Discover', '6011 1111 1111 1117']]) {
      await typeNumber(digits);
      await brand(name).waitFor();
      expect(await number().inputValue()).toBe(shown);
    }

    // Digits that name no brand yet, or none at all: no brand, the code's hint as before.
    for (const digits of ['5', '6200000000000005']) {
      await typeNumber(digits);
      expect(await web.page.getByRole('img').count()).toBe(0);
      expect(await description('Security code')).toBe('3 or 4 digits');
    }

    // A digit typed in the middle keeps the caret after it; a letter is left for the check to point out.
    await typeNumber('42424242');
    await number().press('Home');
    for (let i = 0; i < 5; i++) await number().press('ArrowRight');
    await number().press('1');
    expect(await number().inputValue()).toBe('4242 1424 2');
    expect(await number().evaluate((input: HTMLInputElement) => input.selectionStart)).toBe(6);
    await number().press('x');
    expect(await number().inputValue()).toBe('4242 1x424 2');
    expect(await web.page.getByRole('img').count()).toBe(0);

    // A four-digit code typed before the number showed it a Visa stays as typed, and the check says what a Visa needs.
    await number().fill('');
    await web.page.getByLabel('Expiry date').fill(CARD_EXPIRY);
    await web.page.getByLabel('Security code').fill('1234');
    await typeNumber('4242424242424242');
    expect(await web.page.getByLabel('Security code').inputValue()).toBe('1234');
    await web.page.getByRole('button', { name: /^Pay / }).click();
    await web.page.getByRole('alert').filter({ hasText: 'Enter the 3-digit security code from the back of the card.' }).waitFor();
    expect(await invalid('Security code')).toBe('true');

    // All of it happened in the page: no request left it.
    expect(web.customer.requests.slice(requestsBefore).map((r) => r.url())).toEqual([]);
    expect(web.customer.problems).toEqual([]);
  });
});

describe('the page itself', () => {
  test('an unknown payment id is a 404 page that says so', async () => {
    for (const id of ['pay_000000000000000000000000', 'not-a-payment-id']) {
      const response = await web.page.goto(`${web.service.url}/checkout/${id}`);
      expect(response?.status()).toBe(404);
      expect(await web.page.getByRole('heading', { level: 1, name: 'Payment not found' }).isVisible()).toBe(true);
      expect(await web.page.getByLabel('Card number').count()).toBe(0);
    }
  });

  test('a shop name that looks like HTML is shown as text and runs nothing', async () => {
    const hostile = '<img src=x onerror=alert(1)> & "Co"';
    const { id } = await newPayment(hostile);
    const dialogs: string[] = [];
    web.page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await openCheckout(id);
    expect(await web.page.getByRole('heading', { level: 1 }).innerText()).toContain(hostile);
    expect(await web.page.locator('img').count()).toBe(0);
    expect(await web.page.getByRole('button', { name: /Cancel/ }).innerText()).toContain(hostile);
    expect(dialogs).toEqual([]);
  });

  test('nothing is loaded from outside our origin, a first visit is four requests, and the CSP refuses nothing', async () => {
    const { id } = await newPayment();
    await openCheckout(id);
    await web.page.waitForLoadState('networkidle');
    const origin = new URL(web.service.url).origin;
    const firstLoad = web.customer.requests.map((r) => new URL(r.url()));
    expect(firstLoad.filter((url) => url.origin !== origin)).toEqual([]);
    expect(web.customer.requests.map((r) => r.resourceType()).sort()).toEqual(['document', 'fetch', 'script', 'stylesheet']);

    await fillCard(web.page, { number: '4242424242424242' });
    await web.page.getByRole('button', { name: /^Pay / }).click();
    await web.page.waitForURL(`${SHOP_ORIGIN}/**`);
    // After paying, the only other origin is the seller's return_url, reached by navigation.
    const elsewhere = web.customer.requests.map((r) => r.url()).filter((url) => new URL(url).origin !== origin);
    expect(elsewhere).toEqual([`${RETURN_URL}&payment_id=${id}&status=completed`]);
    expect(web.customer.problems).toEqual([]);
  });

  test('on a 360 x 740 phone screen nothing scrolls sideways, at every step', async () => {
    const phone = await customerPage(web.browser, { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    try {
      const { id } = await newPayment('A shop with a rather long name that must wrap on a narrow phone screen', { amount: 123_456_789 });
      const scrollWidth = () => phone.page.evaluate(() => document.documentElement.scrollWidth);
      await phone.page.goto(`${web.service.url}/checkout/${id}`);
      await phone.page.getByRole('button', { name: 'Pay $1,234,567.89' }).waitFor();
      expect(await scrollWidth()).toBeLessThanOrEqual(360);
      // The Pay button is within the first screen.
      const pay = await phone.page.getByRole('button', { name: /^Pay / }).boundingBox();
      expect(pay!.y + pay!.height).toBeLessThanOrEqual(740);

      await phone.page.getByRole('button', { name: /^Pay / }).click();
      await phone.page.getByRole('alert').filter({ hasText: 'card number' }).waitFor();
      expect(await scrollWidth()).toBeLessThanOrEqual(360);

      await fillCard(phone.page, { number: '4000000000003220' });
      await phone.page.getByRole('button', { name: /^Pay / }).click();
      await phone.page.getByRole('button', { name: 'Fail authentication' }).waitFor();
      expect(await scrollWidth()).toBeLessThanOrEqual(360);

      await phone.page.getByRole('button', { name: 'Fail authentication' }).click();
      await phone.page.getByRole('heading', { name: 'Payment failed' }).waitFor();
      expect(await scrollWidth()).toBeLessThanOrEqual(360);
    } finally {
      await phone.close();
    }
  });
});

describe('slow and refused requests', () => {
  test('while the card is processed the page says so, announced, with the button disabled; a double click sends once', async () => {
    const { id } = await newPayment();
    await openCheckout(id);
    await fillCard(web.page, { number: '4242424242424242' });
    const pay = web.page.getByRole('button', { name: /^Pay / });
    await pay.dblclick();
    const status = web.page.getByRole('status');
    await status.filter({ hasText: 'Processing payment…' }).waitFor();
    expect(await status.isVisible()).toBe(true);
    expect(await pay.isDisabled()).toBe(true);
    await web.page.getByLabel('Security code').press('Enter');
    await web.page.waitForURL(`${SHOP_ORIGIN}/**`);
    expect(web.customer.graphqlOperations()).toEqual(['CheckoutPayment', 'SubmitCard']);
  });

  test('a page opened while the payment is processing elsewhere shows processing and follows it to the end', async () => {
    const { id } = await newPayment();
    const otherTab = checkoutClient(web.service.url).pay(id, '4242424242424242').then((res) => res);
    // However slowly the page loads, the payment is still processing: its completion waits for the row held here.
    const release = await holdWhileProcessing(id);
    try {
      await web.page.goto(`${web.service.url}/checkout/${id}`);
      await web.page.getByRole('status').filter({ hasText: 'Processing payment…' }).waitFor();
      expect(await web.page.getByLabel('Card number').isVisible()).toBe(false);
    } finally {
      await release();
    }
    await web.page.waitForURL(`${SHOP_ORIGIN}/**`);
    expect(web.page.url()).toBe(`${RETURN_URL}&payment_id=${id}&status=completed`);
    expect((await otherTab).body.data.submitCard.status).toBe('COMPLETED');
    expect(web.customer.graphqlOperations().filter((op) => op !== 'CheckoutPayment')).toEqual([]);
  });

  test('a refusal from the server (too many attempts) is shown and the form stays usable', async () => {
    const { apiKey } = await newPayment();
    // The shop's one card submission of the window goes to another payment first.
    const first = await createPayment(web.service, apiKey);
    expect((await checkoutClient(web.service.url).pay(first, '4242424242424242')).body.data.submitCard.status).toBe('COMPLETED');

    const id = await createPayment(web.service, apiKey);
    await openCheckout(id);
    await fillCard(web.page, { number: '4242424242424242' });
    const pay = web.page.getByRole('button', { name: /^Pay / });
    await pay.click();
    await web.page.getByRole('alert').filter({ hasText: 'Too many payment attempts' }).waitFor();
    expect(await pay.isEnabled()).toBe(true);
    expect(await focusedId()).toBe('pay');
    expect(await web.page.getByRole('status').innerText()).toBe('');
    expect((await sellerClient(web.service.url, apiKey).retrieve(id)).body.data.status).toBe('pending');
  });
});
