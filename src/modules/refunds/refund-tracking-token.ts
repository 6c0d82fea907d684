import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { setTrackingTokenHash } from './refund-store';

/**
 * The token of a refund's tracking link (`/refunds/<token>`, src/modules/refunds/refund-tracking.ts): 256 bits from the
 * CSPRNG as base64url. The refund keeps only its SHA-256 (`tracking_token_hash`); the token itself is written into
 * the customer's mails only.
 */

/** 32 bytes as base64url: exactly 43 characters of the URL-safe alphabet. Anything else is not looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const isTrackingTokenShape = (token: string): boolean => TOKEN_SHAPE.test(token);

export const trackingTokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** A new link token and the hash the refund keeps; the token goes into the customer's mail only. */
export function newTrackingToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: trackingTokenHash(token) };
}

/** Gives the refund a (new) link token: for a refund whose request mail carried none. Answers the token. */
export async function issueTrackingToken(tx: EntityManager, refundId: string): Promise<string> {
  const { token, hash } = newTrackingToken();
  await setTrackingTokenHash(tx, refundId, hash);
  return token;
}

/** The path of a refund's page; the mails put the public base URL in front. */
export const trackingPath = (token: string): string => `/refunds/${token}`;
