import { createHash } from 'node:crypto';
import { isMailableAddress } from '../../shared/email';

/**
 * The words and numbers of our mails, one way each: money in dollars, times in UTC (labelled), a card as its brand
 * and last four digits, and text made safe for a header line or for HTML.
 */

/** Integer cents as dollars with thousands separators: 123456 -> "$1,234.56". */
export function dollars(cents: number): string {
  const negative = cents < 0;
  const whole = Math.trunc(Math.abs(cents) / 100);
  const rest = Math.abs(cents) % 100;
  return `${negative ? '-' : ''}$${whole.toLocaleString('en-US')}.${String(rest).padStart(2, '0')}`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "23 November 2026, 10:01 UTC": the date and time in UTC, said so. */
export function utcDateTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

const BRANDS: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', discover: 'Discover' };

/** A card brand's own name (the same in every language), or null for a brand we do not know. */
export function brandName(brand: string | null): string | null {
  return (brand && Object.hasOwn(BRANDS, brand) && BRANDS[brand]) || null;
}

/** Control characters (C0, DEL, C1) and the Unicode line and paragraph separators: none may reach a header. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
/** Bidirectional controls (U+202E turns `gpj.exe` into `exe.jpg`), zero-width and other invisible format characters. */
const INVISIBLE = /[\p{Cf}\u034f\u115f\u1160\u3164\uffa0]/gu;
/** What could pass for an address inside a display name: quotes, angle brackets, `someone@somewhere`. */
const ADDRESS_LOOK_ALIKE = /\S*@\S*|["<>\uff02\uff1c\uff1e\u2039\u203a\u00ab\u00bb]/g;

/**
 * A shop's name as the display name of a From header: header text without anything that could pass for an address,
 * so `PayPal Security" <security@paypal.com>` shows as `PayPal Security`, never as another sender.
 */
export function shopDisplayName(name: string | null | undefined): string {
  return headerText(headerText(name, 200).replace(ADDRESS_LOOK_ALIKE, ' '), 80) || 'A shop';
}

/**
 * Text bound for a header (a display name, a subject): every control character, CR and LF first, becomes a space,
 * spaces collapse, and it is cut to `max` characters. nodemailer encodes what is left (RFC 2047) and quotes
 * display names; this makes sure nothing can end a header line whatever the encoder does.
 */
export function headerText(text: string | null | undefined, max = 120): string {
  const clean = String(text ?? '').replace(INVISIBLE, '').replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  const chars = [...clean];
  return chars.length > max ? `${chars.slice(0, max - 1).join('').trimEnd()}…` : clean;
}

/** Text for a mail body line: control characters other than none become spaces (the text part has its own lines). */
export function bodyText(text: string | null | undefined): string {
  return String(text ?? '').replace(CONTROL, ' ').replace(/ {2,}/g, ' ').trim();
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The receipt number: the completion's UTC date and eight characters derived from the payment id (Crockford
 * base 32: no I, L, O or U to misread), e.g. "R-20261123-7K4M9Q2D". The same payment always has the same number,
 * and it can be read out on the phone; the payment id beside it is the exact reference.
 */
export function receiptNumber(paymentId: string, completedAt: Date): string {
  const digest = createHash('sha256').update(paymentId).digest();
  let code = '';
  for (let i = 0; i < 8; i++) code += CROCKFORD[digest[i] % 32];
  const day = completedAt.toISOString().slice(0, 10).replace(/-/g, '');
  return `R-${day}-${code}`;
}

/** Only the host of a URL (a webhook URL may carry a token in its path or query: never mailed). */
export function hostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/** An address a mail may be sent to or name (src/shared/email.ts). */
export const mailableAddress = isMailableAddress;
