import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sha256Hex } from '../../shared/secrets';
import { insertAccountToken, retireAccountTokens, selectLiveAccountToken, useAccountToken } from './account-token-store';
import type { TokenPurpose } from './account-token-store';
export type { TokenPurpose } from './account-token-store';

/** How long each kind of link works (docs/dashboard.md). */
export const ACCOUNT_TOKEN_TTL: Record<TokenPurpose, number> = {
  /** An invitation may sit in an inbox over a weekend. */
  invitation: 72 * 3_600_000,
  /** Short: a reset link is a way into the account for whoever reads the mail. */
  password_reset: 30 * 60_000,
  /** Printed by the CLI to the operator, who hands it to the new admin. */
  admin_setup: 72 * 3_600_000,
};

/** A new token for `accountId`; the plaintext goes into the link only. Earlier unused ones of the same purpose stop working. */
export async function issueAccountToken(em: EntityManager, purpose: TokenPurpose, accountId: string, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await retireAccountTokens(em, now, accountId, purpose);
  await insertAccountToken(em, sha256Hex(token), purpose, accountId, now, new Date(now.getTime() + ACCOUNT_TOKEN_TTL[purpose]));
  return token;
}

/** The account a live token of `purpose` names, without using it up (null when unknown, used or expired). */
export async function peekAccountToken(em: EntityManager, purpose: TokenPurpose, token: string, now = new Date()): Promise<string | null> {
  return selectLiveAccountToken(em, sha256Hex(String(token ?? '')), purpose, now);
}

/**
 * Uses the token up and answers its account, or null. One UPDATE: two requests racing with the same
 * token cannot both succeed.
 */
export async function consumeAccountToken(em: EntityManager, purpose: TokenPurpose, token: string, now = new Date()): Promise<string | null> {
  return useAccountToken(em, now, sha256Hex(String(token ?? '')), purpose);
}
