import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { CATALOGUES } from '../../src/shared/customer-language/catalogues';
import { LANGUAGES, PSEUDO_LANGUAGE, type Language } from '../../src/shared/customer-language/languages';
import { axeViolations, CARD_EXPIRY, createPayment, customerPage, SHOP_ORIGIN, useBrowser, type CustomerPage } from '../support/browser';
import { readableText, unlocalisedWords } from '../support/pseudo-text';
import { useSmtpSink } from '../support/smtp-sink';
import { useTestService } from '../support/test-service';

/**
 * The checkout in the customer's language: chosen from the browser's (a German and an Arabic Chromium), paid, and
 * the receipt in the language it was paid in; the pseudo-language through the page's states finds any word not from
 * a catalogue; every language at 375 px, axe-clean, with a screenshot in LANGUAGE_SCREENSHOTS (a temporary
 * directory otherwise).
 */
const SHOTS = process.env.LANGUAGE_SCREENSHOTS ?? fs.mkdtempSync(path.join(os.tmpdir(), 'checkout-languages-'));
const smtp = useSmtpSink();
const service = useTestService(() => ({ SMTP_URL: smtp.url, MAIL_POLL_INTERVAL_MS: '100' }));
const browser = useBrowser();
let apiKey: string;
beforeAll(async () => {
  apiKey = (await service.createShop({ shopName: 'Corner Bakery' })).apiKey;
});

let customer: CustomerPage | undefined;
afterEach(async () => {
  await customer?.close();
  customer = undefined;
});

async function open(locale: string, id: string, query = ''): Promise<Page> {
  customer = await customerPage(browser, { locale, viewport: { width: 375, height: 900 } });
  await customer.page.goto(`${service.url}/checkout/${id}${query}`);
  await customer.page.getByRole('heading', { level: 1, name: /Corner Bakery/ }).waitFor();
  return customer.page;
}

/** Everything a reader meets: the visible text, the title, and the names read aloud. */
const pageText = (page: Page) =>
  page.evaluate(() =>
    [document.title, document.body.innerText, ...Array.from(document.querySelectorAll('[aria-label],[placeholder],[title]'), (e) => e.getAttribute('aria-label') ?? e.getAttribute('placeholder') ?? e.getAttribute('title'))].join('\n'),
  );

/** The English sentences of the page's catalogue that this language words differently: none may show. */
function englishLeftIn(text: string, language: Language): string[] {
  const english = Object.entries(CATALOGUES.en).filter(([key, message]) => key.startsWith('checkout.') && CATALOGUES[language][key] !== message);
  return english.flatMap(([, message]) => message.split(/\{[^}]*\}/)).map((part) => part.trim()).filter((part) => part.length >= 4 && text.includes(part));
}

const paymentLanguage = async (id: string) => (await service.em().execute<{ language: string | null }[]>(`select "language" from "payments" where "id" = ?`, [id]))[0].language;

test('a German browser gets the page in German, pays, and the receipt is German', async () => {
  const id = await createPayment(service, apiKey, { amount: 4250, customer_email: 'anna@example.de' });
  const page = await open('de-DE', id);
  expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['de', 'ltr']);
  expect(await page.getByText('42,50 $', { exact: true }).isVisible()).toBe(true);

  await page.getByRole('button', { name: '42,50 $ bezahlen' }).click();
  await page.getByText('Geben Sie Ihre Kartennummer ein.').first().waitFor();
  expect(englishLeftIn(await pageText(page), 'de')).toEqual([]);
  expect(await axeViolations(page)).toEqual([]);

  await page.getByLabel('Kartennummer').fill('4242 4242 4242 4242');
  await page.getByLabel('Ablaufdatum').fill(CARD_EXPIRY);
  await page.getByLabel('Sicherheitscode').fill('123');
  await page.getByRole('button', { name: '42,50 $ bezahlen' }).click();
  await page.waitForURL(`${SHOP_ORIGIN}/**`);
  expect(new URL(page.url()).searchParams.get('status')).toBe('completed');
  expect(await paymentLanguage(id)).toBe('de');

  const [receipt] = await smtp.waitFor((m) => m.envelopeTo.includes('anna@example.de'));
  expect(receipt.parsed.subject).toBe('Ihr Zahlungsbeleg von Corner Bakery');
  expect(receipt.headerLines).toContain('Content-Language: de');
  expect(receipt.parsed.from?.value[0].name).toBe('Corner Bakery über Payments');
  expect(receipt.parsed.text).toContain('Bezahlter Betrag: 42,50\u00a0$ (USD)');
  expect(receipt.parsed.text).toContain('Bezahlt mit: Visa mit Endziffern 4242');
  expect(receipt.parsed.text).toMatch(/Datum: \d{1,2}\. [A-Za-zä]+ \d{4}, \d\d:\d\d UTC/);
  expect(receipt.parsed.html).toContain('<html lang="de" dir="ltr">');
  expect(receipt.parsed.text).not.toMatch(/Amount paid|Receipt|Paid with/);
});

test('an Arabic browser gets the page right to left, card fields and amount left to right, through 3-D Secure to paid', async () => {
  const id = await createPayment(service, apiKey, { amount: 4250 });
  const page = await open('ar-EG', id);
  expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ar', 'rtl']);
  const direction = (selector: string) => page.locator(selector).evaluate((e) => getComputedStyle(e).direction);
  expect(await direction('#card-number')).toBe('ltr');
  expect(await direction('#amount')).toBe('ltr');
  expect(await direction('label[for="card-number"]')).toBe('rtl');
  // Mirrored: the labels start at the right edge of the form.
  const [label, form] = await Promise.all([page.locator('label[for="card-number"]').boundingBox(), page.locator('#card-form').boundingBox()]);
  expect(Math.abs(label!.x + label!.width - (form!.x + form!.width))).toBeLessThan(2);

  const noEnglish = async () => {
    const text = await pageText(page);
    expect(englishLeftIn(text, 'ar')).toEqual([]);
    // No Latin word but the shop's name, the amount's currency and the names of things that have no other (the card's brand).
    expect(unlocalisedWords(text, ['Corner Bakery', 'US$', '3-D Secure', 'Visa', 'English', 'Deutsch', 'Français', 'Español', 'Italiano', 'Nederlands', 'Português (Brasil)', 'Polski'])).toEqual([]);
  };
  await noEnglish();
  expect(await axeViolations(page)).toEqual([]);
  await page.getByLabel('رقم البطاقة').fill('4000 0000 0000 3220');
  await page.getByLabel('تاريخ انتهاء الصلاحية').fill(CARD_EXPIRY);
  await page.getByLabel('رمز الأمان').fill('123');
  await page.getByRole('button', { name: /^ادفع/ }).click();
  await page.getByRole('heading', { name: 'أكّد هذه الدفعة مع البنك الذي أصدر بطاقتك' }).waitFor();
  await noEnglish();
  await page.getByRole('button', { name: 'إتمام التحقق' }).click();
  await page.waitForURL(`${SHOP_ORIGIN}/**`);
  expect(new URL(page.url()).searchParams.get('status')).toBe('completed');
  expect(await paymentLanguage(id)).toBe('ar');
});

test('the language menu changes the page and is remembered for the payment, over the browser\'s', async () => {
  const id = await createPayment(service, apiKey, { amount: 4250 });
  const page = await open('en-US', id);
  await page.getByLabel('Language').selectOption('ja');
  await page.getByRole('button', { name: 'Change' }).click();
  await page.getByLabel('カード番号').waitFor();
  expect(await paymentLanguage(id)).toBe('ja');
  await page.goto(`${service.url}/checkout/${id}`);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('ja');
});

test('the pseudo-language through the page\'s states shows no word that is not from a catalogue', async () => {
  // A card brand is named alike in every language (card-brands.ts), as the shop's name is.
  const data = ['Corner Bakery', '$42.50', 'Visa', 'English', 'Deutsch', 'Français', 'Español', 'Italiano', 'Nederlands', 'Português (Brasil)', 'Polski'];
  const check = async (page: Page) => expect(unlocalisedWords(readableText(await page.content()) + (await pageText(page)), data)).toEqual([]);
  const declined = await createPayment(service, apiKey, { amount: 4250 });
  const page = await open('en-US', declined, `?lang=${PSEUDO_LANGUAGE}`);
  await check(page);
  await page.locator('#pay').click();
  await page.locator('#card-number-error').waitFor();
  await check(page);
  await page.locator('#card-number').fill('4242 4242 4242 4241');
  await page.locator('#card-expiry').fill('13/2');
  await page.locator('#pay').click();
  await check(page);
  await page.locator('#card-number').fill('4000 0000 0000 0002');
  await page.locator('#card-expiry').fill(CARD_EXPIRY);
  await page.locator('#card-code').fill('123');
  await page.locator('#pay').click();
  await page.locator('#outcome-title').waitFor();
  await check(page);

  const challenged = await createPayment(service, apiKey, { amount: 4250 });
  await page.goto(`${service.url}/checkout/${challenged}?lang=${PSEUDO_LANGUAGE}`);
  await page.locator('#card-number').fill('4000 0000 0000 3220');
  await page.locator('#card-expiry').fill(CARD_EXPIRY);
  await page.locator('#card-code').fill('123');
  await page.locator('#pay').click();
  await page.locator('#challenge-title').waitFor();
  await check(page);
  await page.locator('#refuse').click();
  await page.locator('#outcome-title').waitFor();
  await check(page);
  await page.goto(`${service.url}/checkout/pay_000000000000000000000000?lang=${PSEUDO_LANGUAGE}`);
  expect(unlocalisedWords(await pageText(page), [])).toEqual([]);
});

test.each(LANGUAGES)('%s at 375 px: fits, axe-clean, screenshot', async (language) => {
  const id = await createPayment(service, apiKey, { amount: 123456 });
  const page = await open(language, id);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
  await page.locator('#pay').click();
  await page.locator('#card-number-error').waitFor();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: path.join(SHOTS, `checkout-${language}.png`), fullPage: true });
});
