import type { EntityManager } from '@mikro-orm/postgresql';

// The SQL that writes an admin's credential columns (password, lockout, TOTP). The rules are identity's, since admin
// sign-in is identity's (src/modules/identity/credentials.ts); it reaches these through `adminCredentials`, and the
// same statements on `sellers` are its own (src/modules/identity/credential-store.ts).

/** Counts one failed sign-in in one UPDATE, so parallel guesses cannot each read the same count; answers the new count. */
async function countFailedSignIn(em: EntityManager, id: string): Promise<number> {
  const rows: { failed_sign_ins: number }[] = await em.execute(`update "admins" set "failed_sign_ins" = "failed_sign_ins" + 1 where "id" = ? returning "failed_sign_ins"`, [id]);
  return rows[0].failed_sign_ins;
}

async function lockAccount(em: EntityManager, lockedUntil: Date, id: string): Promise<void> {
  await em.execute(`update "admins" set "failed_sign_ins" = 0, "locked_until" = ? where "id" = ?`, [lockedUntil, id]);
}

async function clearFailedSignIns(em: EntityManager, id: string): Promise<void> {
  await em.execute(`update "admins" set "failed_sign_ins" = 0, "locked_until" = null where "id" = ?`, [id]);
}

async function claimTotpStep(em: EntityManager, step: number, id: string): Promise<boolean> {
  const rows = await em.execute(`update "admins" set "totp_last_step" = ? where "id" = ? and ("totp_last_step" is null or "totp_last_step" < ?) returning "id"`, [step, id, step]);
  return rows.length === 1;
}

async function updatePasswordHash(em: EntityManager, passwordHash: string, id: string): Promise<void> {
  await em.execute(`update "admins" set "password_hash" = ? where "id" = ?`, [passwordHash, id]);
}

async function replacePasswordHash(em: EntityManager, passwordHash: string, id: string): Promise<void> {
  await em.execute(`update "admins" set "password_hash" = ?, "failed_sign_ins" = 0, "locked_until" = null where "id" = ?`, [passwordHash, id]);
}

async function storeTotpSecret(em: EntityManager, sealedSecret: string, id: string): Promise<void> {
  await em.execute(`update "admins" set "totp_secret" = ?, "totp_last_step" = null where "id" = ?`, [sealedSecret, id]);
}

async function enableTotp(em: EntityManager, now: Date, step: number, id: string, totpSecret: string): Promise<boolean> {
  const turnedOn = await em.execute(
    `update "admins" set "totp_enabled_at" = ?, "totp_last_step" = ? where "id" = ? and "totp_enabled_at" is null and "totp_secret" = ? returning "id"`,
    [now, step, id, totpSecret],
  );
  return turnedOn.length === 1;
}

async function clearTotp(em: EntityManager, id: string): Promise<void> {
  await em.execute(`update "admins" set "totp_secret" = null, "totp_enabled_at" = null, "totp_last_step" = null where "id" = ?`, [id]);
}

/** An admin's set-up link starts two-factor over: the secret and its date go (the next enrolment resets the last step). */
async function clearTotpForSetup(em: EntityManager, adminId: string): Promise<void> {
  await em.execute(`update "admins" set "totp_enabled_at" = null, "totp_secret" = null where "id" = ?`, [adminId]);
}

/** Each write of an admin's credential; identity's credential store documents what each does. */
export const adminCredentials = {
  countFailedSignIn,
  lockAccount,
  clearFailedSignIns,
  claimTotpStep,
  updatePasswordHash,
  replacePasswordHash,
  storeTotpSecret,
  enableTotp,
  clearTotp,
  clearTotpForSetup,
};
