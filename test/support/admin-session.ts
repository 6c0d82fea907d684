import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { ADMIN_SESSION_COOKIE } from '../../src/platform/http/session-cookies';
import { adminSetupLink } from '../../src/modules/identity/admin-accounts';
import { totpCode } from '../../src/modules/identity/totp';
import { AdminRole } from '../../src/modules/admins/admin-role';
import { createAdmin } from '../../src/modules/admins/admin.service';
import { DEFAULT_ADMIN_TOKEN_TTL_DAYS } from '../../src/shared/config';
import type { TestService } from './test-service';

/** The admin console's sign-in operations, sent as the console sends them. */
export const ADMIN_SIGN_IN_DOCUMENT = fs.readFileSync(path.join(__dirname, '../../schema/operations/admin-sign-in.graphql'), 'utf8');
export const ADMIN_PASSWORD = 'admin-basalt-lantern-58';

/** A browser's admin console session: its cookie and CSRF token. */
export interface AdminSession {
  cookie: string;
  csrfToken: string;
}

export function adminOperation(baseUrl: string, operationName: string, variables: object = {}, session?: Partial<AdminSession>) {
  let req = request(baseUrl).post('/graphql').set('Content-Type', 'application/json');
  if (session?.cookie) req = req.set('Cookie', session.cookie);
  if (session?.csrfToken) req = req.set('X-CSRF-Token', session.csrfToken);
  return req.send({ query: ADMIN_SIGN_IN_DOCUMENT, operationName, variables });
}

/** `__Host-hcp_admin_session=…` from an answer's Set-Cookie. */
export function adminCookieOf(res: request.Response): string {
  const header = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${ADMIN_SESSION_COOKIE}=`));
  if (!header) throw new Error(`no admin session cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  return header.split(';')[0];
}

/** The code of the next 30-second step (valid now, with one step of drift, and not used before). */
export const nextCode = (secret: string) => totpCode(secret, Date.now() + 30_000);

/**
 * A new admin as the CLI makes one (token and set-up link), who then follows the link: password, TOTP
 * enrolment, first code. Not signed in yet.
 */
export async function setUpAdmin(service: TestService, role: AdminRole = AdminRole.OWNER) {
  const email = `admin-${randomBytes(5).toString('hex')}@payments.example`;
  const { admin, token } = await createAdmin(service.em(), { email, role, tokenTtlDays: DEFAULT_ADMIN_TOKEN_TTL_DAYS });
  const link = new URL(await adminSetupLink(service.em(), admin.id, 'https://pay.example.test'));
  const setupToken = link.searchParams.get('setup')!;
  const begun = await adminOperation(service.url, 'AdminSetUp', { token: setupToken, password: ADMIN_PASSWORD });
  const secret = begun.body.data.adminSetUp.secret as string;
  const confirmed = await adminOperation(service.url, 'ConfirmAdminSetUp', { token: setupToken, code: totpCode(secret) });
  return { admin, email, password: ADMIN_PASSWORD, secret, apiToken: token, recoveryCodes: confirmed.body.data.confirmAdminSetUp as string[] };
}

/** A set-up admin signed in at /admin (with the next step's code: sign in again with a recovery code). */
export async function adminSignedIn(service: TestService, role: AdminRole = AdminRole.OWNER) {
  const admin = await setUpAdmin(service, role);
  const res = await adminOperation(service.url, 'AdminSignIn', { email: admin.email, password: admin.password, code: nextCode(admin.secret) });
  if (!res.body.data?.adminSignIn) throw new Error(`admin sign-in failed: ${JSON.stringify(res.body)}`);
  return { ...admin, session: { cookie: adminCookieOf(res), csrfToken: res.body.data.adminSignIn.csrfToken as string } };
}
