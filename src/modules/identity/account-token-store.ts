import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Single-use tokens of mailed or printed links (table `account_tokens`): 256 random bits, only their
 * SHA-256 stored, each for one purpose and one account (a seller `sel_…` or an admin `adm_…`).
 */
export type TokenPurpose = 'invitation' | 'password_reset' | 'admin_setup';

// The SQL of `account_tokens` (src/modules/identity/account-tokens.ts has the rules): only each token's SHA-256 is stored.

/** Marks the account's unused tokens of `purpose` used, so only the one issued next works. */
export async function retireAccountTokens(em: EntityManager, now: Date, accountId: string, purpose: TokenPurpose): Promise<void> {
  await em.execute(`update "account_tokens" set "used_at" = ? where "account_id" = ? and "purpose" = ? and "used_at" is null`, [now, accountId, purpose]);
}

export async function insertAccountToken(em: EntityManager, tokenHash: string, purpose: TokenPurpose, accountId: string, createdAt: Date, expiresAt: Date): Promise<void> {
  await em.execute(`insert into "account_tokens" ("token_hash", "purpose", "account_id", "created_at", "expires_at") values (?, ?, ?, ?, ?)`, [
    tokenHash,
    purpose,
    accountId,
    createdAt,
    expiresAt,
  ]);
}

/** The account of the unused token of this hash and purpose that expires after `now`, or null. */
export async function selectLiveAccountToken(em: EntityManager, tokenHash: string, purpose: TokenPurpose, now: Date): Promise<string | null> {
  const rows: { account_id: string }[] = await em.execute(
    `select "account_id" from "account_tokens" where "token_hash" = ? and "purpose" = ? and "used_at" is null and "expires_at" > ?`,
    [tokenHash, purpose, now],
  );
  return rows[0]?.account_id ?? null;
}

/** Marks that live token used and answers its account, or null: one UPDATE, so of two racing uses only one gets it. */
export async function useAccountToken(em: EntityManager, now: Date, tokenHash: string, purpose: TokenPurpose): Promise<string | null> {
  const rows: { account_id: string }[] = await em.execute(
    `update "account_tokens" set "used_at" = ? where "token_hash" = ? and "purpose" = ? and "used_at" is null and "expires_at" > ? returning "account_id"`,
    [now, tokenHash, purpose, now],
  );
  return rows[0]?.account_id ?? null;
}
