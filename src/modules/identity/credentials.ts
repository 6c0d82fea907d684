import type { EntityManager } from '@mikro-orm/postgresql';
import { domainError } from '../../shared/errors';
import { SIGN_IN_LOCKOUT_MINUTES, SIGN_IN_MAX_FAILURES } from '../../shared/limits';
import {
  claimTotpStep,
  clearFailedSignIns,
  clearTotp,
  countFailedSignIn,
  deleteRecoveryCodes,
  enableTotp,
  insertRecoveryCode,
  lockAccount,
  replacePasswordHash,
  selectCredential,
  storeTotpSecret,
  updatePasswordHash,
  useRecoveryCode,
  type Credential,
} from './credential-store';
import { clearDeviceFailures, countDeviceFailure, knownDevice, type KnownDevice } from './known-devices';
import { hashPassword, needsRehash, verifyPassword } from './password';
import type { SecretBox } from './secret-box';
import { newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpEnrolment, totpStep } from './totp';
import type { AccountKind } from './credential-store';
export type { AccountKind } from './credential-store';

/**
 * Sign-in with password and, when two-factor is on (always, for admins), an authentication code: a TOTP
 * code or a recovery code. Rules:
 * - unknown e-mail, no password yet and wrong password all answer the same after the same scrypt work;
 * - once a code is sent, a wrong password and a wrong code answer the same (`SIGN_IN_FAILED_WITH_CODE`):
 *   the answer never tells which factor failed;
 * - the right password without a code, on an account with two-factor, answers `AUTHENTICATION_CODE_REQUIRED`
 *   (the page then shows the field; the attacker who knows the password still needs the second factor);
 * - every wrong password or code counts towards the lockout (10 in a row: 30 minutes, PCI DSS v4 8.3.4);
 *   from a known device of the account (`device`: its cookie token; src/modules/identity/known-devices.ts) on that
 *   device's own count, from anywhere else on the account's: strangers cannot lock the owner's browser out;
 * - a TOTP step is accepted once per account (replay refused), a recovery code once.
 * Answers the account's id.
 */
export async function authenticate(
  em: EntityManager,
  box: SecretBox,
  kind: AccountKind,
  email: string,
  password: string,
  code: string | null | undefined,
  device: string | null = null,
  now = new Date(),
): Promise<string> {
  const codeSent = typeof code === 'string' && code.trim() !== '';
  const refused = () => domainError(codeSent ? 'SIGN_IN_FAILED_WITH_CODE' : 'SIGN_IN_FAILED');
  const row = await selectCredential(em, kind, 'email', String(email ?? '').trim().toLowerCase());
  const matches = await verifyPassword(String(password ?? ''), row?.passwordHash ?? null);
  if (!row || !row.passwordHash) throw refused();
  const path = await failurePath(em, kind, row, device, now);
  if (path.locked) throw domainError('ACCOUNT_LOCKED');
  const failed = () => path.fail(refused());
  if (!matches) return failed();
  // A revoked admin learns nothing more than a wrong guess would (and spends no recovery code).
  if (kind === 'admin' && !row.active) throw refused();
  // Admins must have two-factor (PCI DSS v4 8.4.2): one without it has not finished the set-up link.
  if (kind === 'admin' && !row.totpEnabledAt) throw domainError('TWO_FACTOR_SETUP_REQUIRED');
  if (row.totpEnabledAt) {
    if (!codeSent) throw domainError('AUTHENTICATION_CODE_REQUIRED');
    if (!(await secondFactorAccepted(em, box, kind, row, code!.trim(), now))) return failed();
  }
  if (!row.active) throw domainError('SELLER_INACTIVE');
  // A known device's success clears its own count only: strangers' count and lock stand.
  if (path.known) await clearDeviceFailures(em, path.known);
  else await clearFailedSignIns(em, kind, row.id);
  // Raised scrypt parameters reach each account at its next sign-in (the only time we hold the password).
  if (needsRehash(row.passwordHash)) await setPasswordHash(em, kind, row.id, await hashPassword(password));
  return row.id;
}

async function countFailure(em: EntityManager, kind: AccountKind, id: string, now: Date, refusal: Error): Promise<never> {
  // Counted in one UPDATE, so parallel guesses cannot each read the same count.
  if ((await countFailedSignIn(em, kind, id)) < SIGN_IN_MAX_FAILURES) throw refusal;
  await lockAccount(em, kind, new Date(now.getTime() + SIGN_IN_LOCKOUT_MINUTES * 60_000), id);
  throw domainError('ACCOUNT_LOCKED');
}

/**
 * Where a check of the account's password or code finds its lock and counts its failure: the known device's
 * own, when the request's browser signed in to this account before (`device`: its cookie token), or the
 * account's, shared by everyone else. So strangers' failures never lock out the owner's browser, and that
 * browser's own failures lock it alike (10 in a row, 30 minutes).
 */
async function failurePath(em: EntityManager, kind: AccountKind, row: Pick<Credential, 'id' | 'lockedUntil'>, device: string | null, now: Date) {
  const known = await knownDevice(em, device, row.id, now);
  const lockedUntil = known ? known.lockedUntil : row.lockedUntil;
  return {
    known,
    locked: lockedUntil !== null && lockedUntil > now,
    fail: (refusal: Error): Promise<never> => (known ? countKnownDeviceFailure(em, known, now, refusal) : countFailure(em, kind, row.id, now, refusal)),
  };
}

async function countKnownDeviceFailure(em: EntityManager, device: KnownDevice, now: Date, refusal: Error): Promise<never> {
  throw (await countDeviceFailure(em, device, now)) ? domainError('ACCOUNT_LOCKED') : refusal;
}

/** A TOTP code of a step later than the last one used (one UPDATE: a replay, even concurrent, is refused), or an unused recovery code. */
async function secondFactorAccepted(em: EntityManager, box: SecretBox, kind: AccountKind, row: Credential, code: string, now: Date): Promise<boolean> {
  const step = row.totpSecret ? totpStep(box.open(row.totpSecret), code, now.getTime()) : null;
  if (step !== null) return claimTotpStep(em, kind, step, row.id);
  return useRecoveryCode(em, now, recoveryCodeHash(code), row.id);
}

/**
 * Checks a password without signing in (change password, turning two-factor on or off); failures count
 * towards the lockout, on the browser's own count when it is a known device of the account (`device`).
 */
export async function confirmPassword(em: EntityManager, kind: AccountKind, id: string, password: string, device: string | null = null, now = new Date()): Promise<void> {
  const row = await selectCredential(em, kind, 'id', id);
  if (!row) throw domainError('SIGN_IN_FAILED');
  const path = await failurePath(em, kind, row, device, now);
  if (path.locked) throw domainError('ACCOUNT_LOCKED');
  if (!(await verifyPassword(String(password ?? ''), row.passwordHash))) await path.fail(domainError('PASSWORD_INCORRECT'));
}

/** What a signed-in person sends to confirm a sensitive change (docs/dashboard.md, "Re-authentication"). */
export interface IdentityProof {
  currentPassword?: string | null;
  code?: string | null;
}

/**
 * Re-authentication before a sensitive change from a session (payout account, webhook URL, webhook secret):
 * a current authentication code (TOTP, or a recovery code) when two-factor is on, the current password
 * otherwise. A missing proof is REAUTHENTICATION_REQUIRED (nothing guessed, nothing counted); a wrong one
 * counts towards the lockout like a wrong sign-in (the known device's own count when `device` names one, the
 * account's otherwise), so a stolen session cannot guess at leisure.
 */
export async function confirmIdentity(
  em: EntityManager,
  box: SecretBox,
  kind: AccountKind,
  id: string,
  proof: IdentityProof,
  device: string | null = null,
  now = new Date(),
): Promise<void> {
  const row = await selectCredential(em, kind, 'id', id);
  if (!row) throw domainError('SIGN_IN_FAILED');
  const path = await failurePath(em, kind, row, device, now);
  if (path.locked) throw domainError('ACCOUNT_LOCKED');
  if (row.totpEnabledAt) {
    const code = String(proof.code ?? '').trim();
    if (code === '') throw domainError('REAUTHENTICATION_REQUIRED', true);
    if (!(await secondFactorAccepted(em, box, kind, row, code, now))) await path.fail(domainError('AUTHENTICATION_CODE_INVALID'));
    return;
  }
  const password = String(proof.currentPassword ?? '');
  if (password === '') throw domainError('REAUTHENTICATION_REQUIRED', false);
  if (!(await verifyPassword(password, row.passwordHash))) await path.fail(domainError('PASSWORD_INCORRECT'));
}

export async function setPasswordHash(em: EntityManager, kind: AccountKind, id: string, passwordHash: string): Promise<void> {
  await updatePasswordHash(em, kind, passwordHash, id);
}

/** A new password (reset, invitation, set-up): the lockout is cleared, as the person proved the mailbox. */
export async function replacePassword(em: EntityManager, kind: AccountKind, id: string, passwordHash: string): Promise<void> {
  await replacePasswordHash(em, kind, passwordHash, id);
}

/**
 * Starts (or restarts) enrolment: a new secret, not yet in force. It is answered once, with its QR code;
 * two-factor is on only after `confirmTwoFactor` proves the app has it.
 */
export async function beginTwoFactor(em: EntityManager, box: SecretBox, kind: AccountKind, id: string) {
  const row = await selectCredential(em, kind, 'id', id);
  if (!row) throw domainError('SIGN_IN_FAILED');
  if (row.totpEnabledAt) throw domainError('TWO_FACTOR_ALREADY_ON');
  const secret = newTotpSecret();
  await storeTotpSecret(em, kind, box.seal(secret), id);
  return totpEnrolment(secret, row.email);
}

/** The first code from the app turns two-factor on; answers 10 new recovery codes, shown once (only their hashes are kept). */
export async function confirmTwoFactor(em: EntityManager, box: SecretBox, kind: AccountKind, id: string, code: string, now = new Date()): Promise<string[]> {
  const row = await selectCredential(em, kind, 'id', id);
  if (!row?.totpSecret || row.totpEnabledAt) throw domainError(row?.totpEnabledAt ? 'TWO_FACTOR_ALREADY_ON' : 'TWO_FACTOR_NOT_STARTED');
  const step = totpStep(box.open(row.totpSecret), String(code ?? '').trim(), now.getTime());
  if (step === null) throw domainError('AUTHENTICATION_CODE_INVALID');
  if (!(await enableTotp(em, kind, now, step, id, row.totpSecret))) throw domainError('TWO_FACTOR_ALREADY_ON');
  return replaceRecoveryCodes(em, id, now);
}

/** Turning two-factor off needs the password and a current code (or a recovery code); the secret and recovery codes are deleted. */
export async function disableTwoFactor(
  em: EntityManager,
  box: SecretBox,
  kind: AccountKind,
  id: string,
  password: string,
  code: string,
  device: string | null = null,
  now = new Date(),
): Promise<void> {
  if (kind === 'admin') throw domainError('TWO_FACTOR_REQUIRED');
  await confirmPassword(em, kind, id, password, device, now);
  const row = await selectCredential(em, kind, 'id', id);
  if (!row?.totpEnabledAt) throw domainError('TWO_FACTOR_NOT_STARTED');
  if (!(await secondFactorAccepted(em, box, kind, row, String(code ?? '').trim(), now))) return (await failurePath(em, kind, row, device, now)).fail(domainError('AUTHENTICATION_CODE_INVALID'));
  await clearTotp(em, kind, id);
  await deleteRecoveryCodes(em, id);
}

/**
 * Two-factor removed without a code, when someone else proved they may: the mailbox through a reset link on
 * an unverified address (an account taken over from a squatter), or an owner admin (a lost phone). The
 * secret, its last step and the recovery codes go.
 */
export async function removeTwoFactor(em: EntityManager, id: string, kind: AccountKind = 'seller'): Promise<void> {
  await clearTotp(em, kind, id);
  await deleteRecoveryCodes(em, id);
}

async function replaceRecoveryCodes(em: EntityManager, id: string, now: Date): Promise<string[]> {
  const codes = newRecoveryCodes();
  await deleteRecoveryCodes(em, id);
  for (const code of codes) await insertRecoveryCode(em, recoveryCodeHash(code), id, now);
  return codes;
}

/** Whether two-factor is on for the account. */
export async function twoFactorEnabled(em: EntityManager, kind: AccountKind, id: string): Promise<boolean> {
  return Boolean((await selectCredential(em, kind, 'id', id))?.totpEnabledAt);
}
