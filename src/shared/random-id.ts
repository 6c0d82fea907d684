import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * `length` characters drawn uniformly from [0-9A-Za-z] by a CSPRNG: each carries log2(62) = 5.95 bits.
 * Rejection sampling (bytes >= 248 are dropped) keeps the distribution unbiased.
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

/** A prefixed identifier such as `pay_…`; 24 characters carry 142 bits of randomness. */
export function prefixedId(prefix: string, length = 24): string {
  return `${prefix}_${randomBase62(length)}`;
}
