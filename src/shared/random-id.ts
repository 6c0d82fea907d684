import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// CSPRNG bytes drawn 4 KB at a time: one system call serves about a hundred ids (docs/decisions/0012-hot-paths.md).
const pool = Buffer.alloc(4096);
let next = pool.length;

function randomByte(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++];
}

/**
 * `length` characters drawn uniformly from [0-9A-Za-z] by a CSPRNG: each carries log2(62) = 5.95 bits.
 * Rejection sampling (bytes >= 248 are dropped) keeps the distribution unbiased.
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/** A prefixed identifier such as `pay_…`; 24 characters carry 142 bits of randomness. */
export function prefixedId(prefix: string, length = 24): string {
  return `${prefix}_${randomBase62(length)}`;
}
