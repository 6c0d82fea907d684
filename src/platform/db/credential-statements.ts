import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The writes of an account's credential columns (password, lockout, TOTP), the same on every table that holds them
 * (`sellers`, `admins`): each owner builds its own set for its own table (src/modules/identity/credential-store.ts
 * documents what each does). One UPDATE each, so parallel sign-ins cannot each read the same count or step.
 */
export function credentialStatements(table: string) {
  if (!/^[a-z_]+$/.test(table)) throw new Error(`not a table name: ${table}`);
  const update = `update "${table}" set`;
  return {
    /** Counts one failed sign-in; answers the new count. */
    async countFailedSignIn(em: EntityManager, id: string): Promise<number> {
      const rows: { failed_sign_ins: number }[] = await em.execute(`${update} "failed_sign_ins" = "failed_sign_ins" + 1 where "id" = ? returning "failed_sign_ins"`, [id]);
      return rows[0].failed_sign_ins;
    },
    async lockAccount(em: EntityManager, lockedUntil: Date, id: string): Promise<void> {
      await em.execute(`${update} "failed_sign_ins" = 0, "locked_until" = ? where "id" = ?`, [lockedUntil, id]);
    },
    async clearFailedSignIns(em: EntityManager, id: string): Promise<void> {
      await em.execute(`${update} "failed_sign_ins" = 0, "locked_until" = null where "id" = ?`, [id]);
    },
    async claimTotpStep(em: EntityManager, step: number, id: string): Promise<boolean> {
      const rows = await em.execute(`${update} "totp_last_step" = ? where "id" = ? and ("totp_last_step" is null or "totp_last_step" < ?) returning "id"`, [step, id, step]);
      return rows.length === 1;
    },
    async updatePasswordHash(em: EntityManager, passwordHash: string, id: string): Promise<void> {
      await em.execute(`${update} "password_hash" = ? where "id" = ?`, [passwordHash, id]);
    },
    async replacePasswordHash(em: EntityManager, passwordHash: string, id: string): Promise<void> {
      await em.execute(`${update} "password_hash" = ?, "failed_sign_ins" = 0, "locked_until" = null where "id" = ?`, [passwordHash, id]);
    },
    async storeTotpSecret(em: EntityManager, sealedSecret: string, id: string): Promise<void> {
      await em.execute(`${update} "totp_secret" = ?, "totp_last_step" = null where "id" = ?`, [sealedSecret, id]);
    },
    async enableTotp(em: EntityManager, now: Date, step: number, id: string, totpSecret: string): Promise<boolean> {
      const rows = await em.execute(`${update} "totp_enabled_at" = ?, "totp_last_step" = ? where "id" = ? and "totp_enabled_at" is null and "totp_secret" = ? returning "id"`, [now, step, id, totpSecret]);
      return rows.length === 1;
    },
    async clearTotp(em: EntityManager, id: string): Promise<void> {
      await em.execute(`${update} "totp_secret" = null, "totp_enabled_at" = null, "totp_last_step" = null where "id" = ?`, [id]);
    },
  };
}
