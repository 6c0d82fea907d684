import { SHOPPER_MESSAGES } from '../../src/modules/checkout/failure-messages';
import { Payment } from '../../src/modules/payments/payment.entity';
import { axeViolations, createPayment, fillCard, useBrowserService } from '../support/browser';

/** Where to save the screenshot of the failed page, to be looked at (unset: none is taken). */
const SCREENSHOT = process.env.SHOPPER_MESSAGES_SCREENSHOT;

const web = useBrowserService();
let apiKey: string;

beforeAll(async () => {
  apiKey = (await web.service.createShop({ shopName: 'Corner Bakery' })).apiKey;
});

test('a card refused for its security code reads as a plain decline on the page, final, with the way back to the shop; the page passes axe', async () => {
  const id = await createPayment(web.service, apiKey);
  await web.page.goto(`${web.service.url}/checkout/${id}`);
  await web.page.getByRole('heading', { level: 1, name: /Corner Bakery/ }).waitFor();
  await fillCard(web.page, { number: '4000 0000 0000 0127', name: 'Ann Example' });
  const answered = web.page.waitForResponse((r) => new URL(r.url()).pathname === '/graphql' && (r.request().postData() ?? '').includes('"SubmitCard"'));
  await web.page.getByRole('button', { name: /^Pay / }).click();

  const failed = web.page.getByRole('heading', { name: 'Payment failed' });
  await failed.waitFor();
  expect(await web.page.getByRole('alert').innerText()).toBe(SHOPPER_MESSAGES.declined);
  const shown = await web.page.getByRole('main').innerText();
  expect(shown).not.toMatch(/security code|cvc|fraud|funds|incorrect/i);
  // A failed payment is final: the page says so once, offers no other card, and shows the way back to the shop.
  expect(shown).not.toMatch(/try|different card|another card/i);
  expect(shown).toContain('This payment cannot be retried. To pay, return to Corner Bakery and start again.');
  expect(await web.page.getByLabel('Card number').isVisible()).toBe(false);
  expect(await web.page.getByRole('button', { name: /^Pay / }).isVisible()).toBe(false);
  expect(await web.page.getByRole('link', { name: 'Return to Corner Bakery' }).isVisible()).toBe(true);
  // What the page was told: the category, not the reason.
  const body = await (await answered).text();
  expect(body).toContain('"failureCode":"declined"');
  expect(body).not.toContain('incorrect_cvc');
  // The precise reason is kept for the seller and admins.
  expect((await web.service.em().findOneOrFail(Payment, id)).failureCode).toBe('incorrect_cvc');

  if (SCREENSHOT) await web.page.screenshot({ path: SCREENSHOT, fullPage: true });
  const violations = await axeViolations(web.page);
  expect(violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${v.help} at ${n.target.join(' ')}`))).toEqual([]);
  expect(web.customer.problems).toEqual([]);
});
