import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isTrackingTokenShape, requestMailTrackingToken } from '../notifications';
import { setTrackingTokenHash } from './refund-store';

/**
 * The token of a refund's tracking link (`/refunds/<token>`, src/modules/refunds/refund-tracking.ts): 256 bits from the
 * CSPRNG as base64url (the shape the mails check: src/modules/notifications/refund-link.ts). The refund keeps only its
 * SHA-256 (`tracking_token_hash`); the token itself is written into the customer's mails only.
 */

export const trackingTokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** A new link token and the hash the refund keeps; the token goes into the customer's mail only. */
export function newTrackingToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: trackingTokenHash(token) };
}

/** Gives the refund a (new) link token: for a refund whose request mail carried none. Answers the token. */
async function issueTrackingToken(tx: EntityManager, refundId: string): Promise<string> {
  const { token, hash } = newTrackingToken();
  await setTrackingTokenHash(tx, refundId, hash);
  return token;
}

/** The refund notice's token: the one the request mail carried (only that mail has it), else a new one. */
export async function noticeTrackingToken(tx: EntityManager, refundId: string): Promise<string> {
  const token = await requestMailTrackingToken(tx, refundId);
  return token && isTrackingTokenShape(token) ? token : issueTrackingToken(tx, refundId);
}
