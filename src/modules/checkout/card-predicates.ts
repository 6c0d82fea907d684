/**
 * The card rules both sides run: the checkout page before sending (bundled into checkout-ui) and the
 * server before calling the acquirer (card-intake.ts). Pure functions, no imports, so the page can use them.
 */
export const CARD_NUMBER = /^\d{12,19}$/;
export const SECURITY_CODE = /^\d{3,4}$/;

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Digits only (spaces and dashes already removed), 12 to 19 of them, passing Luhn. */
export function isCardNumber(digits: string): boolean {
  return CARD_NUMBER.test(digits) && passesLuhn(digits);
}

/** A card is valid through the last day of its expiry month, counted in UTC. */
export function isUnexpired(month: number, year: number, now = new Date()): boolean {
  if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(year) || year < 2000 || year > 2100) return false;
  return Date.UTC(year, month, 1) > now.getTime();
}
