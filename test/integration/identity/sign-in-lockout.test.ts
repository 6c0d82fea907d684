import request from 'supertest';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { sha256Hex } from '../../../src/shared/secrets';
import { ADMIN_SIGN_IN_DOCUMENT, nextCode, setUpAdmin } from '../../support/admin-session';
import { CookieJar, sessionOf, signInFrom, signUpInBrowser } from '../../support/cookie-jar';
import { dashboard, STRONG_PASSWORD } from '../../support/dashboard-client';
import { useTestService } from '../../support/test-service';

/**
 * Anyone can type ten wrong passwords for someone else's address. PCI DSS v4 8.3.4 wants the account locked
 * after at most 10 failures, for at least 30 minutes; the lock must not lock its owner out (docs/dashboard.md,
 * "Lockout"). A browser that signed in before keeps a known-device cookie and counts its own failures; every
 * other browser shares the account's count. Each path locks after 10 failures for 30 minutes.
 */
const service = useTestService({ RATE_LIMIT_PER_MINUTE: '100000', AUTH_FAILURES_PER_MINUTE: '100000' });

const code = (res: request.Response) => res.body.errors?.[0]?.extensions?.code ?? null;
const sql = (query: string, params: unknown[] = []): Promise<any[]> => service.em().execute(query, params);
const signIn = async (email: string, password: string, jar: CookieJar) => code((await signInFrom(service.url, email, password, jar)).res);

/** A seller, and the browser it signed in from (a known device of the account from then on). */
async function sellerWithKnownBrowser() {
  const seller = await signUpInBrowser(service.url);
  const known = new CookieJar();
  expect(await signIn(seller.email, seller.password, known)).toBeNull();
  return { ...seller, known };
}

/** Ten wrong passwords from `jar`: nine refusals, then the lock. */
async function tenFailures(email: string, jar: CookieJar) {
  const answers = [];
  for (let i = 1; i <= 10; i++) answers.push(await signIn(email, `wrong-password-number-${i}`, jar));
  expect(answers).toEqual([...Array(9).fill('SIGN_IN_FAILED'), 'ACCOUNT_LOCKED']);
}

test('the known-device cookie: __Host- prefixed, HttpOnly, Secure, SameSite=Strict, long-lived, a new random value each sign-in, stored only hashed', async () => {
  const seller = await signUpInBrowser(service.url);
  const jar = new CookieJar();
  const first = await signInFrom(service.url, seller.email, seller.password, jar);
  const header = CookieJar.setCookie(first.res, 'hcp_device')!;
  expect(header).toMatch(/^__Host-hcp_device=[A-Za-z0-9_-]{43};/);
  expect(header).toMatch(/; Path=\//);
  expect(header).toMatch(/; HttpOnly/);
  expect(header).toMatch(/; Secure/);
  expect(header).toMatch(/; SameSite=Strict/);
  expect(header).not.toMatch(/Domain=/i);
  const maxAge = Number(/Max-Age=(\d+)/.exec(header)![1]);
  expect(maxAge).toBe(90 * 86_400);
  const token = jar.value('hcp_device')!;
  const rows: { token_hash: string }[] = await sql(`select "token_hash" from "known_devices" where "account_id" = ?`, [seller.sellerId]);
  expect(rows.map((r) => r.token_hash)).toContain(sha256Hex(token));
  expect(JSON.stringify(await sql(`select * from "known_devices"`))).not.toContain(token);
  // The next sign-in replaces the value; the old one names no device any more.
  await signInFrom(service.url, seller.email, seller.password, jar);
  expect(jar.value('hcp_device')).not.toBe(token);
  expect(await sql(`select 1 from "known_devices" where "token_hash" = ?`, [sha256Hex(token)])).toEqual([]);
});

test("a stranger's ten failures lock strangers out for 30 minutes, and the known browser still signs in with the right password", async () => {
  const seller = await sellerWithKnownBrowser();
  const stranger = new CookieJar();
  await tenFailures(seller.email, stranger);
  // PCI DSS 8.3.4 on the strangers' path: the right password is refused too, from this and any other unknown browser.
  expect(await signIn(seller.email, seller.password, stranger)).toBe('ACCOUNT_LOCKED');
  expect(await signIn(seller.email, seller.password, new CookieJar())).toBe('ACCOUNT_LOCKED');
  const [{ minutes }] = await sql(`select extract(epoch from "locked_until" - now()) / 60 as minutes from "sellers" where "id" = ?`, [seller.sellerId]);
  expect(Number(minutes)).toBeGreaterThan(29);
  // The owner's browser is not locked by them.
  const owner = await signInFrom(service.url, seller.email, seller.password, seller.known);
  expect(code(owner.res)).toBeNull();
  expect(code(await dashboard(service.url, 'Account', {}, sessionOf(owner.browser!)))).toBeNull();
  // Its success lifts nothing for strangers: their lock stands.
  expect(await signIn(seller.email, seller.password, new CookieJar())).toBe('ACCOUNT_LOCKED');
});

test("the known browser's own ten failures lock it too (30 minutes), apart from strangers' count", async () => {
  const seller = await sellerWithKnownBrowser();
  await tenFailures(seller.email, seller.known);
  expect(await signIn(seller.email, seller.password, seller.known)).toBe('ACCOUNT_LOCKED');
  const [device] = await sql(`select extract(epoch from "locked_until" - now()) / 60 as minutes from "known_devices" where "token_hash" = ?`, [sha256Hex(seller.known.value('hcp_device')!)]);
  expect(Number(device.minutes)).toBeGreaterThan(29);
  expect(Number(device.minutes)).toBeLessThanOrEqual(30);
  // Its failures were its own: strangers' count is untouched, and another browser signs in.
  expect((await sql(`select "failed_sign_ins", "locked_until" from "sellers" where "id" = ?`, [seller.sellerId]))[0]).toEqual({ failed_sign_ins: 0, locked_until: null });
  expect(await signIn(seller.email, seller.password, new CookieJar())).toBeNull();
  // 30 minutes later (moved in the database) the known browser signs in again, and its count starts over.
  await sql(`update "known_devices" set "locked_until" = now() - interval '1 second' where "token_hash" = ?`, [sha256Hex(seller.known.value('hcp_device')!)]);
  expect(await signIn(seller.email, seller.password, seller.known)).toBeNull();
  expect(await signIn(seller.email, 'wrong-again-wrong-again', seller.known)).toBe('SIGN_IN_FAILED');
});

test('both paths locked: the known browser cannot guess beyond its own ten either', async () => {
  const seller = await sellerWithKnownBrowser();
  await tenFailures(seller.email, new CookieJar());
  await tenFailures(seller.email, seller.known);
  expect(await signIn(seller.email, seller.password, seller.known)).toBe('ACCOUNT_LOCKED');
  expect(await signIn(seller.email, seller.password, new CookieJar())).toBe('ACCOUNT_LOCKED');
});

test('a made-up or planted device cookie, or one of another account, is a stranger', async () => {
  const seller = await sellerWithKnownBrowser();
  const other = await sellerWithKnownBrowser();
  await tenFailures(seller.email, new CookieJar());
  const madeUp = new CookieJar();
  madeUp.cookies.set('__Host-hcp_device', 'a'.repeat(43));
  expect(await signIn(seller.email, seller.password, madeUp)).toBe('ACCOUNT_LOCKED');
  // The other seller's known browser is known to the other seller only.
  expect(await signIn(seller.email, seller.password, other.known)).toBe('ACCOUNT_LOCKED');
  expect(await signIn(other.email, other.password, other.known)).toBeNull();
});

test("a signed-in owner's password checks (two-factor, change password) are not locked by strangers either", async () => {
  const seller = await sellerWithKnownBrowser();
  const owner = (await signInFrom(service.url, seller.email, seller.password, seller.known)).browser!;
  await tenFailures(seller.email, new CookieJar());
  expect(code(await dashboard(service.url, 'BeginTwoFactor', { password: seller.password }, sessionOf(owner)))).toBeNull();
  expect(code(await dashboard(service.url, 'ChangePassword', { currentPassword: seller.password, newPassword: 'fresh-harbour-lantern-91' }, sessionOf(owner)))).toBeNull();
});

test('a password reset forgets every known device (whoever signed in before is a stranger again); a password change keeps only this browser', async () => {
  const seller = await sellerWithKnownBrowser();
  const second = new CookieJar();
  expect(await signIn(seller.email, seller.password, second)).toBeNull();
  const owner = (await signInFrom(service.url, seller.email, seller.password, seller.known)).browser!;
  // The sign-up browser, the first sign-in's and the second's.
  expect((await sql(`select count(*)::int as n from "known_devices" where "account_id" = ?`, [seller.sellerId]))[0].n).toBe(3);
  const newPassword = 'fresh-harbour-lantern-92';
  expect(code(await dashboard(service.url, 'ChangePassword', { currentPassword: seller.password, newPassword }, sessionOf(owner)))).toBeNull();
  const kept = await sql(`select "token_hash" from "known_devices" where "account_id" = ?`, [seller.sellerId]);
  expect(kept).toEqual([{ token_hash: sha256Hex(seller.known.value('hcp_device')!) }]);
  const { issueAccountToken } = await import('../../../src/modules/identity/account-tokens');
  const token = await issueAccountToken(service.em(), 'password_reset', seller.sellerId);
  expect(code(await dashboard(service.url, 'ResetPassword', { token, password: STRONG_PASSWORD.replace('42', '43') }))).toBeNull();
  expect(await sql(`select 1 from "known_devices" where "account_id" = ?`, [seller.sellerId])).toEqual([]);
});

describe('the admin sign-in shares the machinery', () => {
  const adminSignIn = (jar: CookieJar, email: string, password: string, code: string) =>
    request(service.url)
      .post('/graphql')
      .set('Cookie', jar.header())
      .send({ query: ADMIN_SIGN_IN_DOCUMENT, operationName: 'AdminSignIn', variables: { email, password, code } })
      .then((res) => jar.take(res));

  test("strangers' failures lock strangers; the admin's known browser still signs in with password and code; its own failures lock it", async () => {
    const admin = await setUpAdmin(service, AdminRole.FINANCE);
    const known = new CookieJar();
    expect(code(await adminSignIn(known, admin.email, admin.password, nextCode(admin.secret)))).toBeNull();
    expect(CookieJar.setCookie((await adminSignIn(new CookieJar(), admin.email, 'nope', '000000')), 'hcp_device')).toBeUndefined();
    const stranger = new CookieJar();
    const answers = [];
    for (let i = 0; i < 9; i++) answers.push(code(await adminSignIn(stranger, admin.email, `wrong-password-${i}`, '000000')));
    // With the one failure just above, the tenth locks strangers out.
    expect(answers).toEqual([...Array(8).fill('SIGN_IN_FAILED_WITH_CODE'), 'ACCOUNT_LOCKED']);
    expect(code(await adminSignIn(stranger, admin.email, admin.password, nextCode(admin.secret)))).toBe('ACCOUNT_LOCKED');
    // The known browser: the right password and a fresh code (the recovery codes are one-time codes too).
    expect(code(await adminSignIn(known, admin.email, admin.password, admin.recoveryCodes[0]))).toBeNull();
    for (let i = 0; i < 9; i++) await adminSignIn(known, admin.email, `wrong-password-${i}`, '000000');
    expect(code(await adminSignIn(known, admin.email, 'wrong-password-9', '000000'))).toBe('ACCOUNT_LOCKED');
    expect(code(await adminSignIn(known, admin.email, admin.password, admin.recoveryCodes[1]))).toBe('ACCOUNT_LOCKED');
  });
});
