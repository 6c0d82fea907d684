import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { KNOWN_DEVICE_DAYS, SIGN_IN_LOCKOUT_MINUTES, SIGN_IN_MAX_FAILURES } from '../../shared/limits';
import { sha256Hex } from '../../shared/secrets';
import {
  clearKnownDeviceFailures,
  countDeviceFailedSignIn,
  deleteDevicesExcept,
  deleteKnownDevice,
  deleteUnseenDevices,
  lockKnownDevice,
  moveOtherAccountsDevices,
  selectKnownDevice,
  upsertKnownDevice,
} from './known-device-store';

/**
 * Known devices (docs/dashboard.md, "Lockout"): a browser that signed in to an account keeps a random token in
 * an httpOnly cookie, stored here as SHA-256 per account (`sel_…` or `adm_…`). Its failed sign-ins to that
 * account count on its own row, apart from everyone else's (the account's count), so strangers' guesses
 * cannot lock its owner out, and its own guesses lock it after the same 10 failures for the same 30 minutes
 * (PCI DSS v4 8.3.4 holds on each path).
 */
export interface KnownDevice {
  tokenHash: string;
  accountId: string;
  lockedUntil: Date | null;
}

const DAY_MS = 86_400_000;
const since = (now: Date) => new Date(now.getTime() - KNOWN_DEVICE_DAYS * DAY_MS);

/** The browser's row for this account, when its cookie names a device that signed in to it within KNOWN_DEVICE_DAYS. */
export async function knownDevice(em: EntityManager, token: string | null | undefined, accountId: string, now = new Date()): Promise<KnownDevice | null> {
  if (!token) return null;
  const row = await selectKnownDevice(em, sha256Hex(token), accountId, since(now));
  return row ? { tokenHash: row.tokenHash, accountId, lockedUntil: row.lockedUntil } : null;
}

/**
 * A failed sign-in from a known device, counted on that device alone in one UPDATE (parallel guesses cannot
 * share a count). Answers true when this failure locked it (the 10th: 30 minutes).
 */
export async function countDeviceFailure(em: EntityManager, device: KnownDevice, now = new Date()): Promise<boolean> {
  if ((await countDeviceFailedSignIn(em, device.tokenHash, device.accountId)) < SIGN_IN_MAX_FAILURES) return false;
  await lockKnownDevice(em, new Date(now.getTime() + SIGN_IN_LOCKOUT_MINUTES * 60_000), device.tokenHash, device.accountId);
  return true;
}

/** A success from a known device clears that device's count (never the account's: strangers' lock stands). */
export async function clearDeviceFailures(em: EntityManager, device: KnownDevice): Promise<void> {
  await clearKnownDeviceFailures(em, device.tokenHash, device.accountId);
}

/**
 * After a successful sign-in: the browser becomes (or stays) a known device of the account. The token is new
 * every time (a value the browser brought, planted or stolen, is never kept); the rows of the token it
 * brought, when that one was known, move to the new one, so a browser known to several accounts stays known
 * to all. The account's devices unseen for KNOWN_DEVICE_DAYS are forgotten. Answers the new token, for the cookie.
 */
export async function rememberDevice(em: EntityManager, accountId: string, brought: string | null | undefined, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const tokenHash = sha256Hex(token);
  if (brought) await moveOtherAccountsDevices(em, tokenHash, sha256Hex(brought), accountId);
  if (brought) await deleteKnownDevice(em, sha256Hex(brought), accountId);
  // Devices not seen for KNOWN_DEVICE_DAYS are strangers already: their rows go.
  await deleteUnseenDevices(em, accountId, since(now));
  await upsertKnownDevice(em, tokenHash, accountId, now);
  return token;
}

/**
 * Forgets the account's known devices (a password reset, an account taken over from a squatter): whoever
 * signed in before is a stranger again. `keep`: the token of the browser making the change, which stays known.
 */
export async function forgetDevices(em: EntityManager, accountId: string, keep: string | null = null): Promise<void> {
  await deleteDevicesExcept(em, accountId, keep ? sha256Hex(keep) : '');
}
