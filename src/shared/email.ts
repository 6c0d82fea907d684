/** RFC 5321: a forward path holds at most 256 octets including its angle brackets, so 254 for the address. */
export const EMAIL_MAX_LENGTH = 254;

/** `local@domain.tld`: no spaces, one @, a domain of at least two labels. Deliverability is the mail server's call. */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** The one e-mail rule, for customers, sellers and admins alike. */
export function isEmailAddress(text: string): boolean {
  return text.length <= EMAIL_MAX_LENGTH && EMAIL.test(text);
}
