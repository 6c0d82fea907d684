/**
 * The languages customers read: the checkout page, their receipts and refund notices, the refund tracking page.
 * One ICU MessageFormat catalogue each (catalogues/<tag>.json); English where nothing matches.
 */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt-BR', 'pl', 'ja', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/**
 * Every catalogue's English text with its letters accented and bracketed, for tests: a page or mail rendered in
 * it shows at a glance (and to a check) any word that did not come from a catalogue. Never offered nor stored.
 */
export const PSEUDO_LANGUAGE = 'en-XA';
export type PageLanguage = Language | typeof PSEUDO_LANGUAGE;

/** Each language by its own name, as the language menu lists it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  nl: 'Nederlands',
  'pt-BR': 'Português (Brasil)',
  pl: 'Polski',
  ja: '日本語',
  ar: 'العربية',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function isPageLanguage(value: unknown): value is PageLanguage {
  return value === PSEUDO_LANGUAGE || isLanguage(value);
}

export function directionOf(language: PageLanguage): 'rtl' | 'ltr' {
  return language === 'ar' ? 'rtl' : 'ltr';
}

/** Longer than any real Accept-Language header; a longer one is read only this far. */
const MAX_HEADER = 512;

/**
 * The best of our languages for an Accept-Language header (RFC 9110: ranges by quality, then order), or null when
 * none matches. A range matches a language of ours exactly or by its primary subtag (`de-AT` is `de`, any `pt` is
 * Brazilian Portuguese); `*` and quality 0 match nothing.
 */
export function languageFromAcceptLanguage(header: string | undefined | null): Language | null {
  if (!header) return null;
  const ranges = header
    .slice(0, MAX_HEADER)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      // A quality that is not one (RFC 9110: 0 to 1, three decimals at most) leaves its range out.
      const q = params.find((p) => /^\s*q\s*=/i.test(p));
      const quality = q === undefined ? 1 : /^\s*q\s*=\s*(0(\.\d{0,3})?|1(\.0{0,3})?)\s*$/i.test(q) ? Number(q.split('=')[1]) : 0;
      return { tag: tag.trim().toLowerCase(), quality, index };
    })
    .filter((range) => range.quality > 0 && /^[a-z]{1,8}(-[a-z0-9]{1,8})*$/.test(range.tag))
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranges) {
    const exact = LANGUAGES.find((language) => language.toLowerCase() === tag);
    if (exact) return exact;
    const primary = tag.split('-')[0];
    const byPrimary = LANGUAGES.find((language) => language.toLowerCase().split('-')[0] === primary);
    if (byPrimary) return byPrimary;
  }
  return null;
}
