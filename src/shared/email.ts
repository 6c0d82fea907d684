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
  return String(text ?? '').trim().toLowerCase();
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
