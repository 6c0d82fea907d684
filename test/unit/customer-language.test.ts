import fs from 'node:fs';
import path from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { CATALOGUES, type MessageKey } from '../../src/shared/customer-language/catalogues';
import { formatDate, formatMoney, formatTime } from '../../src/shared/customer-language/formats';
import { AWAITING_NATIVE_REVIEW } from '../../src/shared/customer-language/awaiting-review';
import { LANGUAGES, languageFromAcceptLanguage, PSEUDO_LANGUAGE, type Language } from '../../src/shared/customer-language/languages';
import { translator } from '../../src/shared/customer-language/messages';
import { checkoutMessages } from '../../src/shared/customer-language/page-messages';
import { receiptMail, refundNoticeMail, refundRequestedMail, type MailContent } from '../../src/modules/notifications/mail-templates';
import { receiptNumber } from '../../src/modules/notifications/mail-text';
import { refundPage } from '../../src/modules/refunds/refund-tracking-page';
import { RefundStatus } from '../../src/modules/refunds/refund.entity';
import type { TrackedRefund } from '../../src/modules/refunds/refund-tracking';
import { PROJECT_ROOT } from '../../src/shared/project-root';
import { readableText, unlocalisedWords } from '../support/pseudo-text';

const english = CATALOGUES.en;

/** A message's arguments, with their kind (a plural's `#` counts as its own argument). */
function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    if ('value' in element && typeof element.value === 'string') into.add(`${element.value}:${TYPE[element.type]}`);
    if (element.type === TYPE.plural || element.type === TYPE.select) for (const option of Object.values(element.options)) argumentsOf(option.value, into);
  }
  return into;
}

describe('the catalogues', () => {
  test.each(LANGUAGES)('%s has every key English has, no other, each message valid ICU with the same arguments', (language) => {
    const catalogue = CATALOGUES[language];
    expect(Object.keys(catalogue).sort()).toEqual(Object.keys(english).sort());
    for (const [key, message] of Object.entries(catalogue)) {
      expect([key, message.trim()]).toEqual([key, expect.stringMatching(/\S/)]);
      expect([key, [...argumentsOf(parse(message))].sort()]).toEqual([key, [...argumentsOf(parse(english[key]))].sort()]);
    }
  });

  test.each(LANGUAGES)('%s: every plural has an `other` and the categories its language uses, and formats', (language) => {
    const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
    const { t } = translator(language);
    for (const [key, message] of Object.entries(CATALOGUES[language])) {
      const walk = (elements: MessageFormatElement[]): void => {
        for (const element of elements) {
          if (element.type !== TYPE.plural) continue;
          expect([key, Object.keys(element.options)]).toEqual([key, expect.arrayContaining(['other'])]);
          // A language's forms must be there (CLDR's "many" of French, Spanish, Italian, Portuguese is for millions: optional).
          const needed = categories.filter((c) => c !== 'many' || !['fr', 'es', 'it', 'pt-BR'].includes(language));
          expect([key, Object.keys(element.options)]).toEqual([key, expect.arrayContaining(needed)]);
          for (const option of Object.values(element.options)) walk(option.value);
        }
      };
      walk(parse(message));
      const values = Object.fromEntries([...argumentsOf(parse(message))].map((arg) => {
        const [name, kind] = arg.split(':');
        return [name, kind === 'plural' ? 2 : kind === 'select' ? 'no' : 'x'];
      }));
      expect(t(key as MessageKey, values)).not.toBe('');
    }
  });

  test('messages awaiting a native speaker\'s review name keys their catalogue has, worded apart from English', () => {
    for (const [language, keys] of Object.entries(AWAITING_NATIVE_REVIEW)) {
      for (const key of keys) expect([language, key, CATALOGUES[language as Language][key] !== english[key]]).toEqual([language, key, true]);
    }
  });

  test('the checkout page compiles in every language (it formats only arguments, no plural or select)', () => {
    for (const language of [...LANGUAGES, PSEUDO_LANGUAGE] as const) expect(Object.keys(checkoutMessages(language)).length).toBeGreaterThan(50);
  });

  test('plurals come from the format: Polish and Arabic days and hours take their own forms', () => {
    expect(translator('pl').t('refund.says.sending', { min: 2, max: 3 })).toContain('2–3 dni robocze');
    expect(translator('pl').t('refund.says.refunded', { min: 5, max: 10 })).toContain('5–10 dni roboczych');
    expect(translator('ar').t('refund.says.requested', { hours: 24 })).toContain('24 ساعة');
    expect(translator('ar').t('refund.says.requested', { hours: 2 })).toContain('ساعتين');
    expect(translator('en').t('refund.says.requested', { hours: 1 })).toContain('within 1 hour.');
  });

  test('amounts and dates by Intl for the language, the currency kept, times in UTC and said so', () => {
    const at = new Date(Date.UTC(2026, 10, 23, 10, 1));
    expect(formatMoney('de', 123456)).toBe('1.234,56\u00a0$');
    expect(formatMoney('en', 123456)).toBe('$1,234.56');
    expect(formatMoney('ja', 123456, 'usd')).toBe('$1,234.56');
    expect(formatMoney('ar', 123456)).toMatch(/1,234\.56/);
    expect(translator('de').dateTime(at)).toBe('23. November 2026, 10:01 UTC');
    expect(translator('en').dateTime(at)).toBe('23 November 2026, 10:01 UTC');
    expect(translator('ja').dateTime(at)).toBe('2026年11月23日 10:01 UTC');
    expect(formatTime('fr', at)).toBe('10:01 UTC');
    expect(formatDate('pl', at)).toBe('23 listopada 2026');
  });
});

describe('Accept-Language', () => {
  test.each<[string | undefined, string | null]>([
    [undefined, null],
    ['', null],
    ['de-DE,de;q=0.9,en;q=0.8', 'de'],
    ['en-GB;q=0.5, ja', 'ja'],
    ['pt', 'pt-BR'],
    ['PT-br', 'pt-BR'],
    ['zh-CN, *;q=0.1', null],
    ['de;q=0, fr;q=0.001', 'fr'],
    ['fr;q=2, it', 'it'],
    ['<script>, ar', 'ar'],
    [`${'de;q=0.1,'.repeat(60)}ar`, 'de'],
  ])('%j -> %s', (header, language) => {
    expect(languageFromAcceptLanguage(header)).toBe(language);
  });
});

const at = (minute: number) => new Date(Date.UTC(2026, 10, 23, 10, minute));
const FACTS = {
  shopName: 'Corner Bakery',
  serviceName: 'Payments',
  paymentId: 'pay_abcdefghijklmnopqrstuvwx',
  amount: 123456,
  completedAt: at(1),
  cardBrand: 'visa',
  cardLast4: '4242',
  customerName: 'Ann Example',
  supportEmail: 'help@bakery.example',
  language: PSEUDO_LANGUAGE,
} as const;
const REFUND: { refundId: string; refundAmount: number; trackingUrl: string } = { refundId: 'ref_abcdefghijklmnopqrstuvwx', refundAmount: 1250, trackingUrl: 'https://pay.example.com/refunds/tok_abc' };

/** What a pseudo-language mail may show besides its catalogues' words: the data it is about. */
function mailData(): string[] {
  const dates = [at(1), at(2), at(3)].flatMap((date) => [formatDate('en-XA', date), formatTime('en-XA', date)]);
  return [
    ...[...Object.values(FACTS), ...Object.values(REFUND)].filter((v): v is string => typeof v === 'string'),
    'Visa',
    receiptNumber(FACTS.paymentId, FACTS.completedAt),
    formatMoney('en-XA', FACTS.amount),
    formatMoney('en-XA', REFUND.refundAmount),
    ...dates,
  ].filter((value) => value !== 'visa' && value !== PSEUDO_LANGUAGE);
}

describe('nothing a customer reads is written outside the catalogues (the pseudo-language finds it)', () => {
  const mails: [string, () => MailContent][] = [
    ['receipt', () => receiptMail(FACTS)],
    ['refund requested', () => refundRequestedMail({ ...FACTS, ...REFUND, requestedAt: at(2) })],
    ['refund notice', () => refundNoticeMail({ ...FACTS, ...REFUND, refundedAt: at(3) })],
  ];
  test.each(mails)('the %s mail: subject, text and HTML', (_, render) => {
    const mail = render();
    expect(mail.language).toBe(PSEUDO_LANGUAGE);
    expect(unlocalisedWords(mail.subject, mailData())).toEqual([]);
    expect(unlocalisedWords(mail.text, mailData())).toEqual([]);
    expect(unlocalisedWords(readableText(mail.html), mailData())).toEqual([]);
    expect(mail.html).toContain(`<html lang="${PSEUDO_LANGUAGE}" dir="ltr">`);
  });

  test.each(Object.values(RefundStatus))('the refund page of a %s refund', (status) => {
    const refund: TrackedRefund = {
      status, amount: 1250, currency: 'USD', shopName: 'Corner Bakery', supportEmail: 'help@bakery.example', processorReference: 'psp_123',
      requestedAt: at(1), reviewedAt: at(2), sentAt: at(3), refundedAt: at(3), failedAt: at(3), reversedAt: at(3), reachedBank: true, expiresAt: at(3),
    };
    const html = refundPage(null, refund, PSEUDO_LANGUAGE);
    expect(unlocalisedWords(readableText(html), [...mailData(), 'psp_123', 'USD'])).toEqual([]);
  });

  test('the checkout page and its 404 and 503 pages, as built (their changing states: test/browser/checkout-languages.test.ts)', () => {
    for (const page of ['index', 'not-found', 'unavailable']) {
      const html = fs.readFileSync(path.join(PROJECT_ROOT, `dist/checkout-ui/${page}.${PSEUDO_LANGUAGE}.html`), 'utf8');
      // The language menu names each language in itself, as it must.
      const menu = /<select[\s\S]*?<\/select>/.exec(html)?.[0] ?? '';
      expect(unlocalisedWords(readableText(html.replace(menu, '')), [])).toEqual([]);
    }
  });

  test("the page's script writes no sentence of its own: every word it shows is a message key", () => {
    const dir = path.join(PROJECT_ROOT, 'checkout-ui/src');
    for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.ts'))) {
      const source = fs.readFileSync(path.join(dir, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      const sentences = [...source.matchAll(/(['"`])([^'"`\n]*[A-Za-z]{2,} [A-Za-z]{2,}[^'"`\n]*)\1/g)].map((m) => m[2]);
      expect([file, sentences]).toEqual([file, []]);
    }
  });
});
