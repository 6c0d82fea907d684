import request from 'supertest';
import { loadConfig } from '../../../src/shared/config';
import { adminCookieOf, adminOperation, nextCode, setUpAdmin } from '../../support/admin-session';
import { dashboard, newEmail, sessionCookieOf, signUpSeller, STRONG_PASSWORD } from '../../support/dashboard-client';
import { useTestService } from '../../support/test-service';

/**
 * The session and CSRF cookies carry the `__Host-` prefix (docs/operations.md, "Security settings"): a browser
 * keeps such a cookie only when it is Secure, Path=/ and without Domain, so a sibling subdomain or a network
 * attacker on plain http cannot plant or overwrite one (cookie tossing), and the server reads no other name.
 */
const service = useTestService();

const setCookies = (res: request.Response) => ([] as string[]).concat(res.headers['set-cookie'] ?? []);
const code = (res: request.Response) => res.body.errors?.[0]?.extensions?.code ?? null;
const named = (res: request.Response, name: string) => setCookies(res).find((c) => c.startsWith(`${name}=`));

/** The attributes a browser requires of a `__Host-` cookie, and ours besides. */
function expectHostCookie(header: string | undefined, httpOnly: boolean) {
  expect(header).toBeDefined();
  const attributes = header!.split(';').slice(1).map((a) => a.trim());
  expect(attributes).toEqual(expect.arrayContaining(['Path=/', 'Secure', 'SameSite=Strict']));
  expect(attributes.some((a) => /^domain=/i.test(a))).toBe(false);
  expect(attributes.includes('HttpOnly')).toBe(httpOnly);
}

test('sign-up and sign-in set __Host-hcp_session (HttpOnly) and __Host-hcp_csrf (readable): Secure, Path=/, no Domain, SameSite=Strict; no unprefixed cookie', async () => {
  const seller = await signUpSeller(service.url);
  for (const res of [seller.res, await dashboard(service.url, 'SignIn', { email: seller.email, password: seller.password })]) {
    expectHostCookie(named(res, '__Host-hcp_session'), true);
    expectHostCookie(named(res, '__Host-hcp_csrf'), false);
    expect(setCookies(res).filter((c) => c.startsWith('hcp_'))).toEqual([]);
  }
});

test('the admin console sign-in sets __Host-hcp_admin_session and __Host-hcp_admin_csrf with the same flags', async () => {
  const admin = await setUpAdmin(service);
  const res = await adminOperation(service.url, 'AdminSignIn', { email: admin.email, password: admin.password, code: nextCode(admin.secret) });
  expectHostCookie(named(res, '__Host-hcp_admin_session'), true);
  expectHostCookie(named(res, '__Host-hcp_admin_csrf'), false);
  expect(setCookies(res).filter((c) => c.startsWith('hcp_'))).toEqual([]);
});

test('sign-out clears the __Host- cookies with the same attributes (a browser would otherwise keep them)', async () => {
  const seller = await signUpSeller(service.url);
  const res = await dashboard(service.url, 'SignOut', {}, seller.session);
  expect(res.body.data).toEqual({ signOut: true });
  const cleared = named(res, '__Host-hcp_session');
  expect(cleared).toMatch(/^__Host-hcp_session=;/);
  expectHostCookie(cleared, true);
});

test('cookie tossing: a session token planted under the unprefixed name (what a sibling subdomain could set) is never read', async () => {
  const attacker = await signUpSeller(service.url);
  const attackerToken = attacker.session.cookie.split('=')[1];
  // The victim's browser holds only what the attacker tossed: an `hcp_session` cookie and the matching CSRF token.
  const tossed = await dashboard(service.url, 'CurrentSeller', {}, { cookie: `hcp_session=${attackerToken}`, csrfToken: attacker.session.csrfToken });
  expect(code(tossed)).toBe('OPERATION_NOT_ALLOWED');
  // Beside the victim's own session, the tossed cookie changes nothing: the request is the victim's.
  const victim = await signUpSeller(service.url);
  const both = await dashboard(service.url, 'CurrentSeller', {}, { cookie: `hcp_session=${attackerToken}; ${victim.session.cookie}`, csrfToken: victim.session.csrfToken });
  expect(both.body.data.currentSeller.id).toBe(victim.sellerId);
  // And the admin session's unprefixed name is as dead.
  const admin = await setUpAdmin(service);
  const signedIn = await adminOperation(service.url, 'AdminSignIn', { email: admin.email, password: admin.password, code: nextCode(admin.secret) });
  const adminToken = adminCookieOf(signedIn).split('=')[1];
  const plain = await adminOperation(service.url, 'AdminSession', {}, { cookie: `hcp_admin_session=${adminToken}`, csrfToken: signedIn.body.data.adminSignIn.csrfToken });
  expect(plain.body.data?.currentAdmin ?? null).toBeNull();
});

describe('SESSION_COOKIES_INSECURE=1 (plain-http development on a host other than localhost)', () => {
  const insecure = useTestService({ BASE_URL: 'http://dev-box.internal:3000', SESSION_COOKIES_INSECURE: '1' });

  test('the cookies drop the prefix and Secure, stay HttpOnly and SameSite=Strict, and the session works under that name only', async () => {
    const res = await dashboard(insecure.url, 'SignUp', { input: { email: newEmail(), password: STRONG_PASSWORD, shopName: 'Dev Shop' } });
    const session = named(res, 'hcp_session')!;
    expect(session).toMatch(/; HttpOnly/);
    expect(session).toMatch(/; SameSite=Strict/);
    expect(session).not.toMatch(/; Secure/);
    expect(named(res, '__Host-hcp_session')).toBeUndefined();
    const csrfToken = res.body.data.signUp.csrfToken;
    const cookie = session.split(';')[0];
    expect((await dashboard(insecure.url, 'CurrentSeller', {}, { cookie, csrfToken })).body.data.currentSeller.id).toBe(res.body.data.signUp.seller.id);
    expect(code(await dashboard(insecure.url, 'CurrentSeller', {}, { cookie: `__Host-${cookie}`, csrfToken }))).toBe('OPERATION_NOT_ALLOWED');
  });

  test('is refused with an https BASE_URL, and is off by default', () => {
    expect(() => loadConfig({ BASE_URL: 'https://pay.example', SESSION_COOKIES_INSECURE: '1' })).toThrow(/SESSION_COOKIES_INSECURE is for plain-http local development only/);
    expect(loadConfig({}).sessionCookiesInsecure).toBe(false);
    expect(loadConfig({ BASE_URL: 'http://localhost:3000' }).sessionCookiesInsecure).toBe(false);
  });
});

test('the session cookie helper the other suites use reads the __Host- name', async () => {
  const seller = await signUpSeller(service.url);
  expect(sessionCookieOf(seller.res)).toMatch(/^__Host-hcp_session=[A-Za-z0-9_-]{43}$/);
});
