import type { EntityManager } from '@mikro-orm/postgresql';
import { Admin, adminCredentials } from '../admins';
import { domainError } from '../../shared/errors';
import { consumeAccountToken, issueAccountToken, peekAccountToken } from './account-tokens';
import { authenticate, beginTwoFactor, confirmTwoFactor, replacePassword } from './credentials';
import { deleteRecoveryCodes } from './credential-store';
import { checkPasswordPolicy, hashPassword } from './password';
import type { SecretBox } from './secret-box';
import { endAllSessions, startAdminSession } from './sessions';
import { forgetDevices, rememberDevice } from './known-devices';

/**
 * Admin sign-in at /admin (docs/admin.md): e-mail, password and a TOTP code, always (PCI DSS v4 8.4.2).
 * An admin gets there through a set-up link the CLI prints (`create-admin`, `admin-setup-link`): it sets
 * the password and enrols the authenticator in two steps, and works until the second step succeeds
 * (72 hours at most). Admin tokens for scripts are untouched by all of this.
 */
export async function adminSetupLink(em: EntityManager, adminId: string, baseUrl: string): Promise<string> {
  return `${baseUrl}/admin?setup=${await issueAccountToken(em, 'admin_setup', adminId)}`;
}

/**
 * Step 1: the password (the sellers' rule) and a new TOTP secret, shown once with its QR code. Any earlier
 * two-factor of this admin is replaced and their sessions end: a set-up link is how an operator restores
 * an admin who lost their authenticator.
 */
export async function beginAdminSetup(em: EntityManager, box: SecretBox, token: string, password: string) {
  checkPasswordPolicy(String(password ?? ''));
  const adminId = await peekAccountToken(em, 'admin_setup', token);
  if (!adminId) throw domainError('LINK_INVALID');
  await replacePassword(em, 'admin', adminId, await hashPassword(password));
  await adminCredentials.clearTotpForSetup(em, adminId);
  await deleteRecoveryCodes(em, adminId);
  await endAllSessions(em, adminId, 'admin');
  await forgetDevices(em, adminId);
  return beginTwoFactor(em, box, 'admin', adminId);
}

/** Step 2: the first code from the app turns two-factor on and uses the link up; answers the 10 recovery codes, shown once. */
export async function confirmAdminSetup(em: EntityManager, box: SecretBox, token: string, code: string): Promise<string[]> {
  const adminId = await peekAccountToken(em, 'admin_setup', token);
  if (!adminId) throw domainError('LINK_INVALID');
  const codes = await confirmTwoFactor(em, box, 'admin', adminId, code);
  await consumeAccountToken(em, 'admin_setup', token);
  return codes;
}

/**
 * Password and code: the admin, a new admin session's token, and the browser's new known-device token (`device`:
 * the one it sent; strangers' failures do not lock a known device out: src/modules/identity/known-devices.ts).
 */
export async function adminSignIn(
  em: EntityManager,
  box: SecretBox,
  email: string,
  password: string,
  code: string | null,
  userAgent: string | null,
  device: string | null = null,
): Promise<{ admin: Admin; sessionToken: string; deviceToken: string }> {
  const adminId = await authenticate(em, box, 'admin', email, password, code, device);
  const admin = await em.findOneOrFail(Admin, adminId);
  return { admin, sessionToken: await startAdminSession(em, adminId, userAgent), deviceToken: await rememberDevice(em, adminId, device) };
}
