import type { PageLanguage } from './languages';

/**
 * Numbers, dates and times for a language, with Intl. The currency stays what the payment is in; dates and
 * times are in UTC and say so. Arabic keeps Western digits, as card numbers, card statements and the receipts
 * of Gulf and Maghreb banks show them; English keeps the day-month-year order our mails always had.
 */
const NUMBER_LOCALE: Record<PageLanguage, string> = {
  en: 'en-US',
  de: 'de-DE',
  fr: 'fr-FR',
  es: 'es-ES',
  it: 'it-IT',
  nl: 'nl-NL',
  'pt-BR': 'pt-BR',
  pl: 'pl-PL',
  ja: 'ja-JP',
  ar: 'ar-u-nu-latn',
  'en-XA': 'en-US',
};
const DATE_LOCALE: Record<PageLanguage, string> = { ...NUMBER_LOCALE, en: 'en-GB', 'en-XA': 'en-GB' };

/** Integer minor units (cents) as money: 123456 USD is "$1,234.56" in English, "1.234,56 $" in German. */
export function formatMoney(language: PageLanguage, minorUnits: number, currency = 'USD'): string {
  const format = new Intl.NumberFormat(NUMBER_LOCALE[language], { style: 'currency', currency: currency.toUpperCase() });
  return format.format(minorUnits / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

/** "23 November 2026", "23. November 2026", "2026年11月23日" (UTC). */
export function formatDate(language: PageLanguage, date: Date): string {
  return new Intl.DateTimeFormat(DATE_LOCALE[language], { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
}

/** "10:01 UTC": the time of day in UTC, on a 24-hour clock, with its zone. */
export function formatTime(language: PageLanguage, date: Date): string {
  return new Intl.DateTimeFormat(DATE_LOCALE[language], { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC', timeZoneName: 'short' }).format(date);
}
