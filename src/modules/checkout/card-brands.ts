/**
 * The card brands we know by their numbers, for both sides: the checkout page shows the brand while the customer types
 * (bundled into checkout-ui) and the server keeps it with the payment (card-intake.ts). Pure, no imports, so the page
 * can use it. A number of no brand here is still accepted (any Luhn-valid 12 to 19 digits); it is kept as `unknown`.
 */

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover';

export interface CardBrandRule {
  brand: CardBrand;
  /** The brand's own name, the same in every language (mails say it too: "Visa ending in 4242"). */
  name: string;
  /**
   * Issuer identification number ranges, each `[first, last]` of one length, both inclusive: a number belongs to the
   * brand when its first digits, as many as the range's, lie between them.
   */
  ranges: readonly (readonly [string, string])[];
  /** The number as printed on the card: digit groups, left to right (digits beyond them go on in groups of four). */
  groups: readonly number[];
  /** Digits of the security code, and where the card carries it. */
  securityCode: { digits: 3 | 4; on: 'back' | 'front' };
}

/** Groups of four, the last of three for a 19-digit card. */
const FOURS = [4, 4, 4, 4, 3] as const;

export const CARD_BRANDS: readonly CardBrandRule[] = [
  { brand: 'visa', name: 'Visa', ranges: [['4', '4']], groups: FOURS, securityCode: { digits: 3, on: 'back' } },
  {
    brand: 'mastercard',
    name: 'Mastercard',
    // The 2-series (2221-2720) came in 2017, beside the original 51-55.
    ranges: [['51', '55'], ['2221', '2720']],
    groups: FOURS,
    securityCode: { digits: 3, on: 'back' },
  },
  { brand: 'amex', name: 'American Express', ranges: [['34', '34'], ['37', '37']], groups: [4, 6, 5], securityCode: { digits: 4, on: 'front' } },
  {
    brand: 'discover',
    name: 'Discover',
    ranges: [['6011', '6011'], ['644', '649'], ['65', '65']],
    groups: FOURS,
    securityCode: { digits: 3, on: 'back' },
  },
];

/**
 * The brand of a card number, or of the digits typed so far: null until they are enough to tell (a lone `5` may yet be
 * Mastercard's `51` or no brand's `50`). Digits only; the caller drops spaces and dashes.
 */
export function cardBrandOf(digits: string): CardBrandRule | null {
  if (!/^\d+$/.test(digits)) return null;
  for (const rule of CARD_BRANDS) {
    for (const [first, last] of rule.ranges) {
      const prefix = digits.slice(0, first.length);
      if (prefix.length === first.length && prefix >= first && prefix <= last) return rule;
    }
  }
  return null;
}

/** The digits as the card prints them, in its brand's groups (fours for a brand we do not know), separated by spaces. */
export function groupCardDigits(digits: string, rule: CardBrandRule | null): string {
  const groups: string[] = [];
  let at = 0;
  for (let i = 0; at < digits.length; i++) {
    const size = rule?.groups[i] ?? 4;
    groups.push(digits.slice(at, at + size));
    at += size;
  }
  return groups.join(' ');
}
