import type { EntityManager } from '@mikro-orm/postgresql';

// The SQL of `known_devices` (src/modules/identity/known-devices.ts has the rules): one row per browser token
// hash and account, with that device's own failed sign-ins and lock.

/** The device's row for the account, when it was last used after `seenAfter`; its lock made a Date (raw rows carry text). */
export async function selectKnownDevice(em: EntityManager, tokenHash: string, accountId: string, seenAfter: Date): Promise<{ tokenHash: string; lockedUntil: Date | null } | null> {
  const rows: { token_hash: string; locked_until: Date | string | null }[] = await em.execute(
    `select "token_hash", "locked_until" from "known_devices" where "token_hash" = ? and "account_id" = ? and "last_used_at" > ?`,
    [tokenHash, accountId, seenAfter],
  );
  const row = rows[0];
  return row ? { tokenHash: row.token_hash, lockedUntil: row.locked_until ? new Date(row.locked_until) : null } : null;
}

/** Counts one failed sign-in on the device in one UPDATE (parallel guesses cannot share a count); answers the new count, 0 when the row is gone. */
export async function countDeviceFailedSignIn(em: EntityManager, tokenHash: string, accountId: string): Promise<number> {
  const rows: { failed_sign_ins: number }[] = await em.execute(
    `update "known_devices" set "failed_sign_ins" = "failed_sign_ins" + 1 where "token_hash" = ? and "account_id" = ? returning "failed_sign_ins"`,
    [tokenHash, accountId],
  );
  return rows[0]?.failed_sign_ins ?? 0;
}

/** Locks the device out of the account until `lockedUntil`, its count starting over. */
export async function lockKnownDevice(em: EntityManager, lockedUntil: Date, tokenHash: string, accountId: string): Promise<void> {
  await em.execute(`update "known_devices" set "failed_sign_ins" = 0, "locked_until" = ? where "token_hash" = ? and "account_id" = ?`, [lockedUntil, tokenHash, accountId]);
}

export async function clearKnownDeviceFailures(em: EntityManager, tokenHash: string, accountId: string): Promise<void> {
  await em.execute(`update "known_devices" set "failed_sign_ins" = 0, "locked_until" = null where "token_hash" = ? and "account_id" = ?`, [tokenHash, accountId]);
}

/** The rows other accounts keep for the browser's old token move to its new one (the browser stays known to them). */
export async function moveOtherAccountsDevices(em: EntityManager, newTokenHash: string, oldTokenHash: string, accountId: string): Promise<void> {
  await em.execute(`update "known_devices" set "token_hash" = ? where "token_hash" = ? and "account_id" <> ?`, [newTokenHash, oldTokenHash, accountId]);
}

export async function deleteKnownDevice(em: EntityManager, tokenHash: string, accountId: string): Promise<void> {
  await em.execute(`delete from "known_devices" where "token_hash" = ? and "account_id" = ?`, [tokenHash, accountId]);
}

/** The account's devices last used at `lastUsedBy` or before. */
export async function deleteUnseenDevices(em: EntityManager, accountId: string, lastUsedBy: Date): Promise<void> {
  await em.execute(`delete from "known_devices" where "account_id" = ? and "last_used_at" <= ?`, [accountId, lastUsedBy]);
}

/** The device becomes (or stays) known to the account, used now, with a clean count and no lock. */
export async function upsertKnownDevice(em: EntityManager, tokenHash: string, accountId: string, now: Date): Promise<void> {
  await em.execute(
    `insert into "known_devices" ("token_hash", "account_id", "created_at", "last_used_at", "failed_sign_ins", "locked_until") values (?, ?, ?, ?, 0, null)
      on conflict ("token_hash", "account_id") do update set "last_used_at" = excluded."last_used_at", "failed_sign_ins" = 0, "locked_until" = null`,
    [tokenHash, accountId, now, now],
  );
}

/** Every device of the account but the one of `keepTokenHash` (`''` keeps none). */
export async function deleteDevicesExcept(em: EntityManager, accountId: string, keepTokenHash: string): Promise<void> {
  await em.execute(`delete from "known_devices" where "account_id" = ? and "token_hash" <> ?`, [accountId, keepTokenHash]);
}
