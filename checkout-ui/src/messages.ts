import type en from '../../src/shared/customer-language/catalogues/en.json';
import { formatMoney } from '../../src/shared/customer-language/formats';
import type { PageLanguage } from '../../src/shared/customer-language/languages';

/**
 * The page's words: the server sent the page in one language (checkout-page.ts), its messages compiled into the
 * `messages` data block (src/shared/customer-language/page-messages.ts). Nothing the customer reads is written here.
 */
export type MessageKey = Extract<keyof typeof en, `checkout.${string}`>;

const root = document.documentElement;
const compiled = JSON.parse(document.getElementById('messages')?.textContent || '{}') as Record<string, string[]>;
const language = root.lang as PageLanguage;
const rightToLeft = root.dir === 'rtl';

/** What goes between two sentences: Japanese writes them with none. */
export const SENTENCE_GAP = language === 'ja' ? '' : ' ';

/** Text and arguments in turn: `["Pay ", "amount", ""]`. */
export function t(key: MessageKey, values: Record<string, string> = {}): string {
  return (compiled[key] ?? [key]).map((part, i) => (i % 2 === 1 ? (values[part] ?? '') : part)).join('');
}

/** An amount in the page's language, kept left to right (isolated) inside a right-to-left sentence. */
export function money(minorUnits: number, currency: string): string {
  const text = formatMoney(language, minorUnits, currency);
  return rightToLeft ? `\u2066${text}\u2069` : text;
}
