import request from 'supertest';
import { checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

/**
 * The language a payment's customer reads (docs/checkout.md, "Languages"), kept in payments.language: the page's
 * language when the card is sent (Accept-Language of its GraphQL calls) or the menu's choice, and only while the
 * payment can be paid. Whoever knows a payment id may change its language then, never after; a view never does.
 */
const service = useTestService();
let apiKey: string;
beforeAll(async () => {
  apiKey = (await service.createShop()).apiKey;
});

async function newPayment(): Promise<string> {
  const created = await sellerClient(service.url, apiKey).create(VALID_PAYMENT);
  expect(created.status).toBe(200);
  return created.body.data.id as string;
}
const languageOf = async (id: string) => (await service.em().execute<{ language: string | null }[]>(`select "language" from "payments" where "id" = ?`, [id]))[0].language;

test('looking at the page remembers nothing; the menu does; the card sent with the page\'s language settles it', async () => {
  const id = await newPayment();
  const page = await request(service.url).get(`/checkout/${id}`).set('Accept-Language', 'fr');
  expect(page.text).toContain('<html lang="fr" dir="ltr">');
  expect(await languageOf(id)).toBeNull();

  await request(service.url).get(`/checkout/${id}?lang=it`).expect(200);
  expect(await languageOf(id)).toBe('it');
  // Every later view, in any browser, is in the chosen language.
  expect((await request(service.url).get(`/checkout/${id}`).set('Accept-Language', 'ja')).text).toContain('<html lang="it" dir="ltr">');

  const paid = await checkoutClient(service.url, { 'Accept-Language': 'pl' }).pay(id, '4242424242424242');
  expect(paid.body.data.submitCard.status).toBe('COMPLETED');
  expect(await languageOf(id)).toBe('pl');
});

test('a paid payment keeps the language it was paid in, whatever is chosen or sent later', async () => {
  const id = await newPayment();
  await checkoutClient(service.url, { 'Accept-Language': 'de-AT,de;q=0.9' }).pay(id, '4242424242424242');
  expect(await languageOf(id)).toBe('de');
  await request(service.url).get(`/checkout/${id}?lang=ar`).expect(200);
  await checkoutClient(service.url, { 'Accept-Language': 'ja' }).pay(id, '4242424242424242');
  expect(await languageOf(id)).toBe('de');
});

test('a language we do not have, a hostile header or the pseudo-language is never stored', async () => {
  const id = await newPayment();
  for (const header of ['zh-CN', '*', 'en-XA;q=1', `${'a'.repeat(600)},fr`, 'de;q=0']) {
    await checkoutClient(service.url, { 'Accept-Language': header }).view(id);
    await checkoutClient(service.url, { 'Accept-Language': header }).pay(id, '4242424242424241');
  }
  for (const query of ['lang=en-XA', 'lang=xx', "lang=de'--", 'lang[]=de']) await request(service.url).get(`/checkout/${id}?${query}`).expect(200);
  // A header naming the pseudo-language is English by its primary tag: all that any of these could store.
  expect(await languageOf(id)).toBe('en');
});
