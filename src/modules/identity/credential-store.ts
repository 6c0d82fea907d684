import type { EntityManager } from '@mikro-orm/postgresql';
import { adminCredentials } from '../admins';
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
export async function countFailedSignIn(em: EntityManager, kind: AccountKind, id: string): Promise<number> {
  if (kind === 'admin') return adminCredentials.countFailedSignIn(em, id);
  const rows: { failed_sign_ins: number }[] = await em.execute(
    `update "sellers" set "failed_sign_ins" = "failed_sign_ins" + 1 where "id" = ? returning "failed_sign_ins"`,
    [id],
  );
  return rows[0].failed_sign_ins;
}

/** Locks the account until `lockedUntil`, its count starting over. */
export async function lockAccount(em: EntityManager, kind: AccountKind, lockedUntil: Date, id: string): Promise<void> {
  if (kind === 'admin') return adminCredentials.lockAccount(em, lockedUntil, id);
  await em.execute(`update "sellers" set "failed_sign_ins" = 0, "locked_until" = ? where "id" = ?`, [lockedUntil, id]);
}

/** The account's count and lock cleared (a success from anywhere but a known device). */
export async function clearFailedSignIns(em: EntityManager, kind: AccountKind, id: string): Promise<void> {
  if (kind === 'admin') return adminCredentials.clearFailedSignIns(em, id);
  await em.execute(`update "sellers" set "failed_sign_ins" = 0, "locked_until" = null where "id" = ?`, [id]);
}

/** Records `step` as the last TOTP step used, when it is later than the last one: false for a replay, even a concurrent one. */
export async function claimTotpStep(em: EntityManager, kind: AccountKind, step: number, id: string): Promise<boolean> {
  if (kind === 'admin') return adminCredentials.claimTotpStep(em, step, id);
  const rows = await em.execute(
    `update "sellers" set "totp_last_step" = ? where "id" = ? and ("totp_last_step" is null or "totp_last_step" < ?) returning "id"`,
    [step, id, step],
  );
  return rows.length === 1;
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
export async function updatePasswordHash(em: EntityManager, kind: AccountKind, passwordHash: string, id: string): Promise<void> {
  if (kind === 'admin') return adminCredentials.updatePasswordHash(em, passwordHash, id);
  await em.execute(`update "sellers" set "password_hash" = ? where "id" = ?`, [passwordHash, id]);
}

/** A new password hash with the lockout cleared. */
export async function replacePasswordHash(em: EntityManager, kind: AccountKind, passwordHash: string, id: string): Promise<void> {
  if (kind === 'admin') return adminCredentials.replacePasswordHash(em, passwordHash, id);
  await em.execute(`update "sellers" set "password_hash" = ?, "failed_sign_ins" = 0, "locked_until" = null where "id" = ?`, [passwordHash, id]);
}

/** A new TOTP secret (sealed), not yet in force; the last step used starts over. */
export async function storeTotpSecret(em: EntityManager, kind: AccountKind, sealedSecret: string, id: string): Promise<void> {
  if (kind === 'admin') return adminCredentials.storeTotpSecret(em, sealedSecret, id);
  await em.execute(`update "sellers" set "totp_secret" = ?, "totp_last_step" = null where "id" = ?`, [sealedSecret, id]);
}

/**
 * Two-factor on, when it is still off and the secret is the one the code was checked against (a restarted
 * enrolment meanwhile is not turned on): false otherwise.
 */
export async function enableTotp(em: EntityManager, kind: AccountKind, now: Date, step: number, id: string, totpSecret: string): Promise<boolean> {
  if (kind === 'admin') return adminCredentials.enableTotp(em, now, step, id, totpSecret);
  const turnedOn = await em.execute(
    `update "sellers" set "totp_enabled_at" = ?, "totp_last_step" = ? where "id" = ? and "totp_enabled_at" is null and "totp_secret" = ? returning "id"`,
    [now, step, id, totpSecret],
  );
  return turnedOn.length === 1;
}

/** Two-factor off: the secret and its last step go. */
export async function clearTotp(em: EntityManager, kind: AccountKind, id: string): Promise<void> {
  if (kind === 'admin') return adminCredentials.clearTotp(em, id);
  await em.execute(`update "sellers" set "totp_secret" = null, "totp_enabled_at" = null, "totp_last_step" = null where "id" = ?`, [id]);
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
