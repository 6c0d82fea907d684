import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The 3-D Secure return is bound to the browser the issuer sends back: the return address sent to the acquirer
 * carries a single-use token (256 bits from the CSPRNG, URL-safe), and the payment keeps only its SHA-256. A
 * return that does not carry it (someone who only knows the payment id) is not taken (docs/acquirers.md).
 */
export interface ReturnToken {
  /** Goes in the return address, and nowhere else. */
  token: string;
  /** Kept on the payment with the open challenge (`three_ds_return_hash`). */
  hash: string;
}

/** The query parameter of the return address that carries the token. */
export const RETURN_TOKEN_PARAM = 't';

/** Longer than any token we mint; anything longer is not looked at. */
export const RETURN_TOKEN_MAX_LENGTH = 128;

export function newReturnToken(): ReturnToken {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashOf(token) };
}

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** Whether `token` is the one whose hash the open challenge keeps, compared in constant time. */
export function returnTokenMatches(storedHash: string | null, token: string | null | undefined): boolean {
  if (!storedHash || !token || token.length > RETURN_TOKEN_MAX_LENGTH) return false;
  const expected = Buffer.from(storedHash, 'hex');
  const given = Buffer.from(hashOf(token), 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
