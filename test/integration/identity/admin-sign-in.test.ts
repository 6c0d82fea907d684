import request from 'supertest';
import { adminSetupLink } from '../../../src/modules/identity/admin-accounts';
import { totpCode } from '../../../src/modules/identity/totp';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { createAdmin, revokeAdmin } from '../../../src/modules/admins/admin.service';
import { DEFAULT_ADMIN_TOKEN_TTL_DAYS } from '../../../src/shared/config';
import { ADMIN_PASSWORD, adminCookieOf, adminOperation, adminSignedIn, nextCode, setUpAdmin } from '../../support/admin-session';
import { CHECKOUT_DOCUMENT } from '../../support/checkout-client';
import { dashboard, signUpSeller } from '../../support/dashboard-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

/**
 * Admins sign in at /admin with e-mail, password and a TOTP code, always (PCI DSS v4 8.4.2; docs/admin.md):
 * the set-up link, the sign-in, the admin session (cookie, CSRF, timeouts, role), and what stays as it
 * was (admin tokens for scripts).
 */
const service = useTestService({});

const code = (res: request.Response) => res.body.errors?.[0]?.extensions?.code ?? null;
const sql = (query: string, params: unknown[] = []) => service.em().execute(query, params);
const signIn = (email: string, password: string, authCode: string) => adminOperation(service.url, 'AdminSignIn', { email, password, code: authCode });
const asSession = (session: { cookie: string; csrfToken?: string }, query: string, variables: object = {}) => {
  let req = request(service.url).post('/graphql').set('Content-Type', 'application/json').set('Cookie', session.cookie);
  if (session.csrfToken) req = req.set('X-CSRF-Token', session.csrfToken);
  return req.send({ query, variables });
};

describe('the set-up link', () => {
  test('sets the password (the password rule applies) and enrols TOTP; the first code turns it on and uses the link up', async () => {
    const email = `new-admin-${Date.now()}@payments.example`;
    const { admin } = await createAdmin(service.em(), { email, role: AdminRole.FINANCE, tokenTtlDays: DEFAULT_ADMIN_TOKEN_TTL_DAYS });
    const link = new URL(await adminSetupLink(service.em(), admin.id, 'https://pay.example.test'));
    expect(link.pathname).toBe('/admin');
    const token = link.searchParams.get('setup')!;
    expect(code(await adminOperation(service.url, 'AdminSetUp', { token, password: 'Password1234' }))).toBe('PASSWORD_TOO_COMMON');
    // Before set-up, no password works (an admin made by the CLI has none).
    expect(code(await signIn(email, ADMIN_PASSWORD, '123456'))).toBe('SIGN_IN_FAILED_WITH_CODE');

    const begun = (await adminOperation(service.url, 'AdminSetUp', { token, password: ADMIN_PASSWORD })).body.data.adminSetUp;
    expect(begun.qrCodeSvg).toMatch(/^<svg/);
    expect(new URL(begun.otpauthUri).searchParams.get('secret')).toBe(begun.secret);
    // Password set, two-factor not confirmed: an admin cannot sign in without it.
    expect(code(await signIn(email, ADMIN_PASSWORD, totpCode(begun.secret)))).toBe('TWO_FACTOR_SETUP_REQUIRED');
    expect(code(await adminOperation(service.url, 'ConfirmAdminSetUp', { token, code: '000000' }))).toBe('AUTHENTICATION_CODE_INVALID');
    const codes = (await adminOperation(service.url, 'ConfirmAdminSetUp', { token, code: totpCode(begun.secret) })).body.data.confirmAdminSetUp;
    expect(codes).toHaveLength(10);
    expect(code(await adminOperation(service.url, 'AdminSetUp', { token, password: 'hijacker-passphrase-11' }))).toBe('LINK_INVALID');
    expect(code(await adminOperation(service.url, 'ConfirmAdminSetUp', { token, code: nextCode(begun.secret) }))).toBe('LINK_INVALID');
    expect(code(await signIn(email.toUpperCase(), ADMIN_PASSWORD, nextCode(begun.secret)))).toBeNull();
  });

  test('an expired or made-up link does nothing', async () => {
    const { admin } = await createAdmin(service.em(), { email: `late-${Date.now()}@payments.example`, role: AdminRole.SUPPORT, tokenTtlDays: 1 });
    const token = new URL(await adminSetupLink(service.em(), admin.id, 'https://x.test')).searchParams.get('setup')!;
    await sql(`update "account_tokens" set "expires_at" = now() - interval '1 second' where "account_id" = ?`, [admin.id]);
    expect(code(await adminOperation(service.url, 'AdminSetUp', { token, password: ADMIN_PASSWORD }))).toBe('LINK_INVALID');
    expect(code(await adminOperation(service.url, 'AdminSetUp', { token: 'x'.repeat(43), password: ADMIN_PASSWORD }))).toBe('LINK_INVALID');
  });
});

describe('sign-in', () => {
  test('needs all three; a wrong password and a wrong code get the same answer; a code is not accepted twice', async () => {
    const admin = await setUpAdmin(service);
    const wrongCode = await signIn(admin.email, admin.password, '000000');
    const wrongPassword = await signIn(admin.email, 'not-the-password-at-all', nextCode(admin.secret));
    const unknown = await signIn('nobody@payments.example', admin.password, nextCode(admin.secret));
    expect(code(wrongCode)).toBe('SIGN_IN_FAILED_WITH_CODE');
    for (const res of [wrongPassword, unknown]) expect(res.body.errors).toEqual(wrongCode.body.errors);
    expect(code(await adminOperation(service.url, 'AdminSignIn', { email: admin.email, password: admin.password, code: '' }))).toBe('AUTHENTICATION_CODE_REQUIRED');
    const good = nextCode(admin.secret);
    const res = await signIn(admin.email, admin.password, good);
    expect(res.body.data.adminSignIn.admin).toMatchObject({ id: admin.admin.id, role: 'OWNER' });
    expect(code(await signIn(admin.email, admin.password, good))).toBe('SIGN_IN_FAILED_WITH_CODE');
    // A recovery code works once.
    expect(code(await signIn(admin.email, admin.password, admin.recoveryCodes[0]))).toBeNull();
    expect(code(await signIn(admin.email, admin.password, admin.recoveryCodes[0]))).toBe('SIGN_IN_FAILED_WITH_CODE');
  });

  test('the session cookie is its own (__Host-hcp_admin_session), httpOnly, Secure and SameSite=Strict', async () => {
    const admin = await setUpAdmin(service);
    const res = await signIn(admin.email, admin.password, nextCode(admin.secret));
    const cookies = ([] as string[]).concat(res.headers['set-cookie']);
    const session = cookies.find((c) => c.startsWith('__Host-hcp_admin_session='))!;
    expect(session).toMatch(/; HttpOnly/);
    expect(session).toMatch(/; Secure/);
    expect(session).toMatch(/; SameSite=Strict/);
    expect(cookies.find((c) => c.startsWith('__Host-hcp_admin_csrf='))).not.toMatch(/HttpOnly/);
    expect(cookies.some((c) => c.startsWith('__Host-hcp_session='))).toBe(false);
  });

  test('10 failures (passwords or codes) lock the admin for 30 minutes', async () => {
    const admin = await setUpAdmin(service);
    for (let i = 0; i < 5; i++) await signIn(admin.email, `wrong-password-${i}`, nextCode(admin.secret));
    for (let i = 0; i < 4; i++) expect(code(await signIn(admin.email, admin.password, String(200000 + i)))).toBe('SIGN_IN_FAILED_WITH_CODE');
    expect(code(await signIn(admin.email, admin.password, '299999'))).toBe('ACCOUNT_LOCKED');
    expect(code(await signIn(admin.email, admin.password, nextCode(admin.secret)))).toBe('ACCOUNT_LOCKED');
  });
});

describe('the admin session', () => {
  test('acts as the admin with their role; needs the CSRF header; a cross-site form is refused', async () => {
    const support = await adminSignedIn(service, AdminRole.SUPPORT);
    expect((await asSession(support.session, '{ currentAdmin { id role } }')).body.data.currentAdmin).toEqual({ id: support.admin.id, role: 'SUPPORT' });
    const ownerOnly = await asSession(support.session, '{ admins { id } }');
    expect(code(ownerOnly)).toBe('FORBIDDEN_ROLE');
    expect(code(await asSession({ cookie: support.session.cookie }, '{ currentAdmin { id } }'))).toBe('CSRF_TOKEN_INVALID');
    expect(code(await asSession({ cookie: support.session.cookie, csrfToken: 'f'.repeat(64) }, '{ currentAdmin { id } }'))).toBe('CSRF_TOKEN_INVALID');
    const form = await request(service.url)
      .post('/graphql')
      .set('Cookie', support.session.cookie)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('query=mutation%20%7B%20adminSignOut%20%7D');
    expect(form.status).toBe(403);
    expect(code(await asSession(support.session, '{ currentAdmin { id } }'))).toBeNull();
  });

  test('is not an API key: the REST facade ignores the cookie', async () => {
    const admin = await adminSignedIn(service);
    const res = await request(service.url).get('/api/v1/payments').set('Cookie', admin.session.cookie).set('X-CSRF-Token', admin.session.csrfToken);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: 'API key required' });
  });

  test('ends after 15 idle minutes and 12 hours after sign-in; sign out ends it', async () => {
    const admin = await adminSignedIn(service);
    await sql(`update "admin_sessions" set "last_seen_at" = now() - interval '15 minutes 1 second' where "admin_id" = ?`, [admin.admin.id]);
    expect(code(await asSession(admin.session, '{ currentAdmin { id } }'))).toBe('OPERATION_NOT_ALLOWED');

    const again = await signIn(admin.email, admin.password, admin.recoveryCodes[0]);
    const session = { cookie: adminCookieOf(again), csrfToken: again.body.data.adminSignIn.csrfToken };
    await sql(`update "admin_sessions" set "created_at" = now() - interval '12 hours 1 second' where "admin_id" = ? and "revoked_at" is null`, [admin.admin.id]);
    expect(code(await asSession(session, '{ currentAdmin { id } }'))).toBe('OPERATION_NOT_ALLOWED');

    const third = await signIn(admin.email, admin.password, admin.recoveryCodes[1]);
    const live = { cookie: adminCookieOf(third), csrfToken: third.body.data.adminSignIn.csrfToken };
    expect((await adminOperation(service.url, 'MyAdminSessions', {}, live)).body.data.myAdminSessions).toEqual([expect.objectContaining({ current: true })]);
    expect((await adminOperation(service.url, 'AdminSignOut', {}, live)).body.data).toEqual({ adminSignOut: true });
    expect(code(await asSession(live, '{ currentAdmin { id } }'))).toBe('OPERATION_NOT_ALLOWED');
  });

  test('revoke-admin ends their sessions at once; their admin token for scripts stays usable until then', async () => {
    const admin = await adminSignedIn(service);
    const withToken = await request(service.url).post('/graphql').set('Authorization', `Bearer ${admin.apiToken}`).send({ query: '{ currentAdmin { id } }' });
    expect(withToken.body.data.currentAdmin.id).toBe(admin.admin.id);
    await revokeAdmin(service.em(), admin.email);
    expect(code(await asSession(admin.session, '{ currentAdmin { id } }'))).toBe('OPERATION_NOT_ALLOWED');
    expect(code(await signIn(admin.email, admin.password, admin.recoveryCodes[0]))).toBe('SIGN_IN_FAILED_WITH_CODE');
  });

  test('a browser holding a seller session and an admin session: the CSRF token sent says which one speaks', async () => {
    const admin = await adminSignedIn(service);
    const seller = await signUpSeller(service.url);
    const cookie = `${seller.session.cookie}; ${admin.session.cookie}`;
    const asSeller = await dashboard(service.url, 'CurrentSeller', {}, { cookie, csrfToken: seller.session.csrfToken });
    expect(asSeller.body.data.currentSeller.id).toBe(seller.sellerId);
    const asAdmin = await asSession({ cookie, csrfToken: admin.session.csrfToken }, '{ currentAdmin { id } }');
    expect(asAdmin.body.data.currentAdmin.id).toBe(admin.admin.id);
    expect(code(await asSession({ cookie, csrfToken: 'f'.repeat(64) }, '{ currentAdmin { id } }'))).toBe('CSRF_TOKEN_INVALID');
    // The checkout page in that browser sends no CSRF header: its public operations pass as the public.
    const paymentId = (await sellerClient(service.url, seller.apiKey).create(VALID_PAYMENT)).body.data.id;
    const checkout = await request(service.url).post('/graphql').set('Cookie', cookie).send({ query: CHECKOUT_DOCUMENT, operationName: 'CheckoutPayment', variables: { id: paymentId } });
    expect(checkout.body.data.checkoutPayment.id).toBe(paymentId);
    expect(code(await asSession({ cookie }, '{ currentAdmin { id } }'))).toBe('CSRF_TOKEN_INVALID');
  });
});

test('a new set-up link (lost phone) replaces the authenticator: the old secret and recovery codes stop working', async () => {
  const admin = await setUpAdmin(service);
  const token = new URL(await adminSetupLink(service.em(), admin.admin.id, 'https://x.test')).searchParams.get('setup')!;
  const fresh = (await adminOperation(service.url, 'AdminSetUp', { token, password: 'replacement-passphrase-4' })).body.data.adminSetUp;
  expect(code(await adminOperation(service.url, 'ConfirmAdminSetUp', { token, code: totpCode(fresh.secret) }))).toBeNull();
  expect(code(await signIn(admin.email, 'replacement-passphrase-4', admin.recoveryCodes[0]))).toBe('SIGN_IN_FAILED_WITH_CODE');
  expect(code(await signIn(admin.email, 'replacement-passphrase-4', nextCode(fresh.secret)))).toBeNull();
});
