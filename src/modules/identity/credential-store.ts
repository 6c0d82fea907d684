import type { EntityManager } from '@mikro-orm/postgresql';
import { adminCredentials } from '../admins';
import { credentialStatements } from '../../platform/db/credential-statements';
import { SellerStatus } from './seller.entity';

/**
 * The credentials sellers and admins share (docs/dashboard.md): password, lockout and TOTP second factor,
 * one rule set for both, on the `sellers` and `admins` tables alike.
 */
export type AccountKind = 'seller' | 'admin';

// The SQL of the credentials sellers and admins share (src/modules/identity/credentials.ts has the rules): the
// password, lockout and TOTP columns of `sellers` and `admins`, and the `recovery_codes` of both. An admin's
// columns are written by the admins module's store (`adminCredentials`), which owns the table.

const TABLE: Record<AccountKind, string> = { seller: 'sellers', admin: 'admins' };

const ACTIVE: Record<AccountKind, string> = { seller: `"status" = '${SellerStatus.ACTIVE}'`, admin: `"revoked_at" is null` };

/** Sellers' addresses are stored lower-cased (sign-up); admins' as the operator typed them. */
const EMAIL_MATCH: Record<AccountKind, string> = { seller: '"email" = ?', admin: 'lower("email") = ?' };

/** Raw rows carry timestamps as PostgreSQL's text (MikroORM's type parsers): made Dates here, once. */
const dateOf = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

const sellerCredentials = credentialStatements('sellers');
/** Where an account's credential columns are written: the sellers' here, the admins' by their owner. */
const credentialsOf = (kind: AccountKind) => (kind === 'admin' ? adminCredentials : sellerCredentials);

export interface Credential {
  id: string;
  email: string;
  passwordHash: string | null;
  lockedUntil: Date | null;
  /** As stored: sealed when ACCOUNT_SECRETS_KEY is set (src/modules/identity/secret-box.ts). */
  totpSecret: string | null;
  totpEnabledAt: Date | null;
  /** Sellers: `status`; admins: `revoked_at`. */
  active: boolean;
}

/** The account's credential, found by its id or by its e-mail address (`value` lower-cased by the caller). */
export async function selectCredential(em: EntityManager, kind: AccountKind, where: 'id' | 'email', value: string): Promise<Credential | null> {
  const rows: { id: string; email: string; password_hash: string | null; locked_until: Date | string | null; totp_secret: string | null; totp_enabled_at: Date | string | null; active: boolean }[] =
    await em.execute(
      `select "id", "email", "password_hash", "locked_until", "totp_secret", "totp_enabled_at", ${ACTIVE[kind]} as "active"
       from "${TABLE[kind]}" where ${where === 'email' ? EMAIL_MATCH[kind] : '"id" = ?'}`,
      [value],
    );
  const row = rows[0];
  return row
    ? {
        id: row.id,
        email: row.email,
        passwordHash: row.password_hash,
        lockedUntil: dateOf(row.locked_until),
        totpSecret: row.totp_secret,
        totpEnabledAt: dateOf(row.totp_enabled_at),
        active: row.active,
      }
    : null;
}

/** Counts one failed sign-in in one UPDATE, so parallel guesses cannot each read the same count; answers the new count. */
export function countFailedSignIn(em: EntityManager, kind: AccountKind, id: string): Promise<number> {
  return credentialsOf(kind).countFailedSignIn(em, id);
}

/** Locks the account until `lockedUntil`, its count starting over. */
export function lockAccount(em: EntityManager, kind: AccountKind, lockedUntil: Date, id: string): Promise<void> {
  return credentialsOf(kind).lockAccount(em, lockedUntil, id);
}

/** The account's count and lock cleared (a success from anywhere but a known device). */
export function clearFailedSignIns(em: EntityManager, kind: AccountKind, id: string): Promise<void> {
  return credentialsOf(kind).clearFailedSignIns(em, id);
}

/** Records `step` as the last TOTP step used, when it is later than the last one: false for a replay, even a concurrent one. */
export function claimTotpStep(em: EntityManager, kind: AccountKind, step: number, id: string): Promise<boolean> {
  return credentialsOf(kind).claimTotpStep(em, step, id);
}

/** Uses up the account's recovery code of this hash, when it is unused: false otherwise. */
export async function useRecoveryCode(em: EntityManager, now: Date, codeHash: string, accountId: string): Promise<boolean> {
  const used = await em.execute(`update "recovery_codes" set "used_at" = ? where "code_hash" = ? and "account_id" = ? and "used_at" is null returning "code_hash"`, [
    now,
    codeHash,
    accountId,
  ]);
  return used.length === 1;
}

/** The password hash alone (a rehash, a change of password): the lockout stays as it is. */
export function updatePasswordHash(em: EntityManager, kind: AccountKind, passwordHash: string, id: string): Promise<void> {
  return credentialsOf(kind).updatePasswordHash(em, passwordHash, id);
}

/** A new password hash with the lockout cleared. */
export function replacePasswordHash(em: EntityManager, kind: AccountKind, passwordHash: string, id: string): Promise<void> {
  return credentialsOf(kind).replacePasswordHash(em, passwordHash, id);
}

/** A new TOTP secret (sealed), not yet in force; the last step used starts over. */
export function storeTotpSecret(em: EntityManager, kind: AccountKind, sealedSecret: string, id: string): Promise<void> {
  return credentialsOf(kind).storeTotpSecret(em, sealedSecret, id);
}

/**
 * Two-factor on, when it is still off and the secret is the one the code was checked against (a restarted
 * enrolment meanwhile is not turned on): false otherwise.
 */
export function enableTotp(em: EntityManager, kind: AccountKind, now: Date, step: number, id: string, totpSecret: string): Promise<boolean> {
  return credentialsOf(kind).enableTotp(em, now, step, id, totpSecret);
}

/** Two-factor off: the secret and its last step go. */
export function clearTotp(em: EntityManager, kind: AccountKind, id: string): Promise<void> {
  return credentialsOf(kind).clearTotp(em, id);
}

export async function deleteRecoveryCodes(em: EntityManager, accountId: string): Promise<void> {
  await em.execute(`delete from "recovery_codes" where "account_id" = ?`, [accountId]);
}

/** One recovery code: only its hash is kept. */
export async function insertRecoveryCode(em: EntityManager, codeHash: string, accountId: string, now: Date): Promise<void> {
  await em.execute(`insert into "recovery_codes" ("code_hash", "account_id", "created_at") values (?, ?, ?)`, [codeHash, accountId, now]);
}

/** The seller's address verified at `now`, unless it was already (the first date stays). */
export async function markSellerEmailVerified(em: EntityManager, now: Date, sellerId: string): Promise<void> {
  await em.execute(`update "sellers" set "email_verified_at" = coalesce("email_verified_at", ?) where "id" = ?`, [now, sellerId]);
}

/**
 * When the seller's address was verified, read under a lock on the seller's row (`for update`, until the
 * caller's transaction ends): the takeover decides on a state no one changes meanwhile. Null for an unknown seller.
 */
export async function lockSellerEmailVerification(tx: EntityManager, sellerId: string): Promise<{ emailVerifiedAt: Date | null } | null> {
  const [row]: { email_verified_at: Date | string | null }[] = await tx.execute(`select "email_verified_at" from "sellers" where "id" = ? for update`, [sellerId]);
  return row ? { emailVerifiedAt: dateOf(row.email_verified_at) } : null;
}

/**
 * Since when the seller's two-factor is on, read under a lock on the seller's row (`for update`, until the
 * caller's transaction ends): the check and the removal see the same state. Null for an unknown seller.
 */
export async function lockSellerTwoFactor(tx: EntityManager, sellerId: string): Promise<{ totpEnabledAt: Date | null } | null> {
  const [row]: { totp_enabled_at: Date | string | null }[] = await tx.execute(`select "totp_enabled_at" from "sellers" where "id" = ? for update`, [sellerId]);
  return row ? { totpEnabledAt: dateOf(row.totp_enabled_at) } : null;
}
