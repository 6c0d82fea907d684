import type { IntlMessageFormat, PrimitiveType } from 'intl-messageformat';
import { catalogueOf, type MessageKey } from './catalogues';
import { formatDate, formatMoney, formatTime } from './formats';
import { directionOf, type PageLanguage } from './languages';

export type MessageValues = Record<string, PrimitiveType>;

/** A language's words and formats, for what the server writes: mails, the refund page, the bank redirect page. */
export interface Translator {
  language: PageLanguage;
  t(key: MessageKey, values?: MessageValues): string;
  /** An amount; in a right-to-left language isolated left to right (U+2066…U+2069), in text and HTML alike. */
  money(minorUnits: number, currency?: string): string;
  date(date: Date): string;
  /** Date and time, in UTC, said so. */
  dateTime(date: Date): string;
}

const formats = new Map<string, IntlMessageFormat>();

function messageFormat(language: PageLanguage, key: MessageKey): IntlMessageFormat {
  const id = `${language}\u0000${key}`;
  let format = formats.get(id);
  if (!format) {
    // Loaded at the first message formatted: a start or a CLI command that formats none never loads the ICU parser.
    const { IntlMessageFormat: Format } = require('intl-messageformat') as typeof import('intl-messageformat');
    // Plural rules by the language itself (the pseudo-language's are English).
    format = new Format(catalogueOf(language)[key], language === 'en-XA' ? 'en' : language);
    formats.set(id, format);
  }
  return format;
}

export function translator(language: PageLanguage): Translator {
  const t = (key: MessageKey, values: MessageValues = {}) => String(messageFormat(language, key).format(values));
  return {
    language,
    t,
    money: (minorUnits, currency = 'USD') => {
      const amount = formatMoney(language, minorUnits, currency);
      return directionOf(language) === 'rtl' ? `\u2066${amount}\u2069` : amount;
    },
    date: (date) => formatDate(language, date),
    dateTime: (date) => t('common.dateTime', { date: formatDate(language, date), time: formatTime(language, date) }),
  };
}
