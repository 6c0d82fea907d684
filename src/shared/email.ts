/** RFC 5321: a forward path holds at most 256 octets including its angle brackets, so 254 for the address. */
export const EMAIL_MAX_LENGTH = 254;

/** `local@domain.tld`: no spaces, one @, a domain of at least two labels. Deliverability is the mail server's call. */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/**
 * A seller's address as stored and looked up: trimmed and lower-cased, whoever typed it (sign-up, an admin,
 * the CLI), so two accounts cannot differ only by case or surrounding spaces, and sign-in and password reset
 * find the account however the person types it.
 */
export function normalEmail(text: string | null | undefined): string {
  // NFKC first: a full-width `ａｎｎ＠example.com` is `ann@example.com`, not a second account that looks the same.
  return String(text ?? '').normalize('NFKC').trim().toLowerCase();
}

/** Characters that show nothing (zero-width spaces and joiners, bidirectional controls, soft hyphens …). */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}\p{Co}\p{Cn}]/u;
const NON_LATIN_LETTER = /(?=\p{L})\P{Script=Latin}/u;
const LATIN_LETTER = /\p{Script=Latin}/u;

/**
 * An address for a new account (sign-up, a seller or admin an admin or the operator creates), in its normal form:
 * the e-mail rule, nothing invisible, and letters of one script besides Latin (none that passes for Latin when
 * Latin letters are there), so that `аnn@example.com` (a Cyrillic а) or `ann\u200b@example.com` cannot pass for
 * `ann@example.com` in the back office; `山田@例え.jp` is fine.
 */
export function isNewAccountAddress(text: string): boolean {
  if (!isEmailAddress(text) || INVISIBLE.test(text)) return false;
  const letters = [...text].filter((c) => /\p{L}/u.test(c));
  const latin = letters.some((c) => LATIN_LETTER.test(c));
  const others = new Set(letters.filter((c) => NON_LATIN_LETTER.test(c)).map(scriptOf));
  return others.size === 0 || (others.size === 1 && !(latin && LOOK_LATIN.has([...others][0])));
}

/** Scripts whose letters pass for Latin ones (а, ο, ս …); an unknown script is taken to be one of them. */
const LOOK_LATIN = new Set(['Cyrillic', 'Greek', 'Armenian', 'other']);

const SCRIPTS = ['Cyrillic', 'Greek', 'Armenian', 'Georgian', 'Arabic', 'Hebrew', 'Devanagari', 'Thai', 'Hangul', 'Han', 'Hiragana', 'Katakana'];

/** A non-Latin letter's script, as far as look-alikes go (Japanese writes Han, Hiragana and Katakana together: one). */
function scriptOf(letter: string): string {
  const script = SCRIPTS.find((name) => new RegExp(`\\p{Script=${name}}`, 'u').test(letter)) ?? 'other';
  return ['Han', 'Hiragana', 'Katakana'].includes(script) ? 'Japanese or Chinese' : script;
}

/** The one e-mail rule, for customers, sellers and admins alike. */
export function isEmailAddress(text: string): boolean {
  return text.length <= EMAIL_MAX_LENGTH && EMAIL.test(text);
}

/**
 * An address a mail may be sent to or name (a customer, a support address): the e-mail rule, and none of the
 * characters that would need quoting or could end a header: controls, spaces, `<>()[]\,;:"` (so no `a@[127.0.0.1]`).
 */
export function isMailableAddress(text: string | null | undefined): boolean {
  return typeof text === 'string' && isEmailAddress(text) && !/[\u0000-\u0020\u007f-\u009f\u2028\u2029<>()[\]\\,;:"]/.test(text);
}

/** Providers that ignore dots in the local part, under the domain they deliver for. */
const DOTLESS_DOMAINS: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The mailbox an address reaches, as far as can be told from outside, for counting mails per person: the normal
 * form (NFKC, trimmed, lower case) without a `+tag` (sub-addressing, delivered to the same mailbox by most
 * providers), and at Gmail without the local part's dots. Never an address to send to.
 */
export function mailboxKey(address: string): string {
  const normal = normalEmail(address);
  const at = normal.lastIndexOf('@');
  if (at <= 0) return normal;
  let local = normal.slice(0, at);
  const domain = normal.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_DOMAINS[domain];
  return dotless ? `${local.replaceAll('.', '')}@${dotless}` : `${local}@${domain}`;
}
