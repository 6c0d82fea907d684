import { PSEUDO_CLOSE, PSEUDO_OPEN } from '../../src/shared/customer-language/pseudo';

/**
 * The words of a page or mail rendered in the pseudo-language (en-XA) that did not come from a catalogue: what is
 * left once the catalogues' bracketed text and the data it shows (a shop's name, ids, amounts, dates, addresses)
 * are taken out. Each catalogue letter is accented, so any plain ASCII word left was written somewhere else.
 */
export function unlocalisedWords(text: string, data: string[]): string[] {
  let rest = text;
  // Longest first: a shop name inside a longer value is taken with it.
  for (const value of [...data].filter(Boolean).sort((a, b) => b.length - a.length)) rest = rest.split(value).join(' ');
  rest = rest.replace(new RegExp(`[${PSEUDO_OPEN}${PSEUDO_CLOSE}]`, 'g'), ' ');
  return rest.match(/[A-Za-z]{2,}/g) ?? [];
}

/** The text a reader meets in an HTML document: its title, text nodes, and the attributes read aloud or shown. */
export function readableText(html: string): string {
  const attributes = [...html.matchAll(/\s(?:alt|title|placeholder|aria-label)="([^"]*)"/g)].map((m) => m[1]);
  const body = html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, ' ')
    .replace(/<style\b[^>]*>[\s\S]*?<\/style>/gi, ' ')
    .replace(/<[^>]+>/g, ' ');
  return decodeEntities([body, ...attributes].join(' '));
}

function decodeEntities(text: string): string {
  return text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"');
}
