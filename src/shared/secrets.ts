import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** SHA-256 as lowercase hex: how API keys and admin tokens are stored (they only need verifying). */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

/** Constant-time equality of two hex digests of equal length. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
