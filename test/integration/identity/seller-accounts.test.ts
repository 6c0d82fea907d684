import { randomBytes, scryptSync } from 'node:crypto';
import request from 'supertest';
import { CHECKOUT_DOCUMENT } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { dashboard, newEmail, sessionCookieOf, signUpSeller, STRONG_PASSWORD, type DashboardSession } from '../../support/dashboard-client';
import { useMailServer } from '../../support/mail-server';
import { useTestService } from '../../support/test-service';
import { lowerPasswordWorkForTests } from '../../../src/modules/identity/password';

/**
 * The dashboard's accounts (docs/dashboard.md), attacked through /graphql as a browser would send them:
 * real PostgreSQL, the session cookie and the CSRF header. Clocks are moved in the database (the test owns
 * it), never by sleeping.
 */
const mail = useMailServer();
// The tests on the stored hash itself run scrypt with production's work (a tenth of a second alone, a second or more
// on a loaded CI machine); the rest with the test work.
jest.setTimeout(120_000);

/** Runs `check` with production's scrypt work, as the service hashes outside tests. */
async function withProductionWork(check: () => Promise<void>): Promise<void> {
  lowerPasswordWorkForTests(false);
  try {
    await check();
  } finally {
    lowerPasswordWorkForTests(true);
  }
}
const service = useTestService(() => ({ RATE_LIMIT_PER_MINUTE: '10000', AUTH_FAILURES_PER_MINUTE: '10000', SMTP_URL: mail.url }));

const code = (res: request.Response) => res.body.errors?.[0]?.extensions?.code ?? null;
const message = (res: request.Response) => res.body.errors?.[0]?.message ?? null;
const sql = (query: string, params: unknown[] = []) => service.em().execute(query, params);
const whoAmI = (session: Partial<DashboardSession>) => dashboard(service.url, 'CurrentSeller', {}, session);
const signIn = (email: string, password: string, cookie?: string) => dashboard(service.url, 'SignIn', { email, password }, { cookie });

describe('sign-up', () => {
  test('creates the seller, its shop and an API key shown once, which works on REST; the password is stored as scrypt', () => withProductionWork(async () => {
    const seller = await signUpSeller(service.url);
    expect(seller.apiKey).toMatch(/^svc_live_/);
    expect((await sellerClient(service.url, seller.apiKey).create(VALID_PAYMENT)).status).toBe(200);
    const [row] = await sql('select "password_hash", "email_verified_at" from "sellers" where "id" = ?', [seller.sellerId]);
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(row.password_hash).not.toContain(STRONG_PASSWORD);
    expect(row.email_verified_at).toBeNull();
    const me = await whoAmI(seller.session);
    expect(me.body.data).toEqual({ currentSeller: { id: seller.sellerId, email: seller.email, emailVerifiedAt: null }, currentShop: { id: seller.shopId, name: 'Dashboard Shop' } });
  }));

  test('with an https BASE_URL the session cookie is httpOnly, Secure and SameSite=Strict; the CSRF cookie is readable', async () => {
    const { res } = await signUpSeller(service.url);
    const cookies = ([] as string[]).concat(res.headers['set-cookie']);
    const session = cookies.find((c) => c.startsWith('__Host-hcp_session='))!;
    const csrf = cookies.find((c) => c.startsWith('__Host-hcp_csrf='))!;
    expect(session).toMatch(/; HttpOnly/);
    expect(session).toMatch(/; Secure/);
    expect(session).toMatch(/; SameSite=Strict/);
    expect(csrf).toMatch(/; Secure/);
    expect(csrf).toMatch(/; SameSite=Strict/);
    expect(csrf).not.toMatch(/HttpOnly/);
  });

  test.each([
    ['eleven char', 'PASSWORD_TOO_SHORT', 'Password must be at least 12 characters'],
    ['Password1234', 'PASSWORD_TOO_COMMON', 'Password is too common; choose another'],
    ['QWERTYUIOP123', 'PASSWORD_TOO_COMMON', 'Password is too common; choose another'],
  ])('refuses the password %j (PCI DSS 8.3.6)', async (password, expected, text) => {
    const res = await dashboard(service.url, 'SignUp', { input: { email: newEmail(), password, shopName: 'S' } });
    expect(code(res)).toBe(expected);
    expect(message(res)).toBe(text);
  });

  test('an e-mail already registered is refused, whatever its case', async () => {
    const { email } = await signUpSeller(service.url);
    const res = await dashboard(service.url, 'SignUp', { input: { email: email.toUpperCase(), password: STRONG_PASSWORD, shopName: 'S' } });
    expect(code(res)).toBe('EMAIL_TAKEN');
  });
});

describe('sign-in', () => {
  test('unknown e-mail and wrong password get the same answer, and both pay for a scrypt run', () => withProductionWork(async () => {
    const { email } = await signUpSeller(service.url);
    const timed = async (e: string) => {
      const started = process.hrtime.bigint();
      const res = await signIn(e, 'not-the-password-at-all');
      return { res, ms: Number(process.hrtime.bigint() - started) / 1e6 };
    };
    const wrong = [];
    const unknown = [];
    for (let i = 0; i < 3; i++) {
      wrong.push(await timed(email));
      unknown.push(await timed(newEmail()));
    }
    for (const { res } of [...wrong, ...unknown]) expect({ status: res.status, errors: res.body.errors }).toEqual({ status: wrong[0].res.status, errors: wrong[0].res.body.errors });
    expect(code(wrong[0].res)).toBe('SIGN_IN_FAILED');
    const median = (runs: { ms: number }[]) => runs.map((r) => r.ms).sort((a, b) => a - b)[1];
    // Loose on purpose (a shared machine): an unknown e-mail that skipped scrypt would be many times faster.
    expect(median(unknown)).toBeGreaterThan(median(wrong) / 3);
  }));

  test('10 failed sign-ins lock the account for 30 minutes, even against the right password (PCI DSS 8.3.4)', async () => {
    const { email, password, sellerId } = await signUpSeller(service.url);
    for (let i = 1; i <= 9; i++) expect(code(await signIn(email, `wrong-password-${i}`))).toBe('SIGN_IN_FAILED');
    const tenth = await signIn(email, 'wrong-password-10');
    expect(code(tenth)).toBe('ACCOUNT_LOCKED');
    expect(message(tenth)).toBe('Account locked after 10 failed sign-ins; try again in 30 minutes');
    expect(code(await signIn(email, password))).toBe('ACCOUNT_LOCKED');
    const [{ minutes }] = await sql(`select extract(epoch from "locked_until" - now()) / 60 as minutes from "sellers" where "id" = ?`, [sellerId]);
    expect(Number(minutes)).toBeGreaterThan(29);
    expect(Number(minutes)).toBeLessThanOrEqual(30);
    // 30 minutes later (moved in the database): the right password works, and the count starts again.
    await sql(`update "sellers" set "locked_until" = now() - interval '1 second' where "id" = ?`, [sellerId]);
    expect((await signIn(email, password)).body.data.signIn.seller.id).toBe(sellerId);
    expect(code(await signIn(email, 'wrong-again-1'))).toBe('SIGN_IN_FAILED');
  });

  test('a success resets the failure count: 9 failures, a success, 9 more do not lock', async () => {
    const { email, password } = await signUpSeller(service.url);
    for (let i = 0; i < 9; i++) await signIn(email, `nope-nope-nope-${i}`);
    expect(code(await signIn(email, password))).toBeNull();
    for (let i = 0; i < 9; i++) expect(code(await signIn(email, `nope-nope-nope-${i}`))).toBe('SIGN_IN_FAILED');
  });

  test('session fixation: signing in issues a new session id, never the one the browser brought', async () => {
    const { email, password, session } = await signUpSeller(service.url);
    const planted = '__Host-hcp_session=attacker-chosen-value';
    const first = await signIn(email, password, planted);
    // Already signed in (the browser sends its cookie and CSRF token): still a new session.
    const second = await dashboard(service.url, 'SignIn', { email, password }, session);
    const ids = [session.cookie, sessionCookieOf(first), sessionCookieOf(second)];
    expect(new Set(ids).size).toBe(3);
    expect(ids).not.toContain(planted);
    const [{ count }] = await sql(`select count(*)::int as count from "seller_sessions" where "token_hash" = encode(sha256('attacker-chosen-value'), 'hex')`);
    expect(count).toBe(0);
  });
});

describe('sessions', () => {
  test('without the CSRF header, with a wrong one, or as a cross-site form, a session request is refused', async () => {
    const { session } = await signUpSeller(service.url);
    expect(code(await whoAmI({ cookie: session.cookie }))).toBe('CSRF_TOKEN_INVALID');
    expect(code(await whoAmI({ cookie: session.cookie, csrfToken: 'f'.repeat(64) }))).toBe('CSRF_TOKEN_INVALID');
    const form = await request(service.url)
      .post('/graphql')
      .set('Cookie', session.cookie)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('query=mutation%20%7B%20signOutEverywhere%20%7D');
    expect(form.status).toBe(403);
    expect(code(await whoAmI(session))).toBeNull();
  });

  test('in the browser they are signed in with, the checkout page still works (public operations pass without the header); nothing else does', async () => {
    const seller = await signUpSeller(service.url);
    const paymentId = (await sellerClient(service.url, seller.apiKey).create(VALID_PAYMENT)).body.data.id;
    const checkout = await request(service.url)
      .post('/graphql')
      .set('Cookie', seller.session.cookie)
      .send({ query: CHECKOUT_DOCUMENT, operationName: 'CheckoutPayment', variables: { id: paymentId } });
    expect(checkout.body.data.checkoutPayment.id).toBe(paymentId);
    // The cookie is not looked at: no session is made the caller, and the session is not dropped.
    expect(checkout.headers['set-cookie']).toBeUndefined();
    expect(code(await whoAmI({ cookie: seller.session.cookie }))).toBe('CSRF_TOKEN_INVALID');
    expect(code(await whoAmI(seller.session))).toBeNull();
  });

  test('a password hashed with older scrypt parameters is rehashed with today\'s at the next sign-in', () => withProductionWork(async () => {
    const { email, password, sellerId } = await signUpSeller(service.url);
    const salt = randomBytes(16);
    const old = scryptSync(password.normalize('NFKC'), salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    await sql('update "sellers" set "password_hash" = ? where "id" = ?', [`scrypt$16384$8$1$${salt.toString('base64url')}$${old.toString('base64url')}`, sellerId]);
    expect(code(await signIn(email, password))).toBeNull();
    const [row] = await sql('select "password_hash" from "sellers" where "id" = ?', [sellerId]);
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(code(await signIn(email, password))).toBeNull();
  }));

  test('a session idle for 15 minutes has ended; 14 minutes is still fine (PCI DSS 8.2.8)', async () => {
    const { session, sellerId } = await signUpSeller(service.url);
    await sql(`update "seller_sessions" set "last_seen_at" = now() - interval '14 minutes' where "seller_id" = ?`, [sellerId]);
    expect(code(await whoAmI(session))).toBeNull();
    await sql(`update "seller_sessions" set "last_seen_at" = now() - interval '15 minutes 1 second' where "seller_id" = ?`, [sellerId]);
    const expired = await whoAmI(session);
    expect(code(expired)).toBe('OPERATION_NOT_ALLOWED');
    expect(([] as string[]).concat(expired.headers['set-cookie'] ?? []).some((c) => /^__Host-hcp_session=;/.test(c))).toBe(true);
  });

  test('a busy session still ends 12 hours after sign-in', async () => {
    const { session, sellerId } = await signUpSeller(service.url);
    await sql(`update "seller_sessions" set "created_at" = now() - interval '11 hours 59 minutes' where "seller_id" = ?`, [sellerId]);
    expect(code(await whoAmI(session))).toBeNull();
    await sql(`update "seller_sessions" set "created_at" = now() - interval '12 hours 1 second' where "seller_id" = ?`, [sellerId]);
    expect(code(await whoAmI(session))).toBe('OPERATION_NOT_ALLOWED');
  });

  test('sign out ends this session only; sign out everywhere ends them all', async () => {
    const { email, password, session } = await signUpSeller(service.url);
    const login = async () => {
      const res = await signIn(email, password);
      return { cookie: sessionCookieOf(res), csrfToken: res.body.data.signIn.csrfToken as string };
    };
    const [laptop, phone] = [await login(), await login()];
    expect((await dashboard(service.url, 'SignOut', {}, session)).body.data).toEqual({ signOut: true });
    expect(code(await whoAmI(session))).toBe('OPERATION_NOT_ALLOWED');
    expect(code(await whoAmI(laptop))).toBeNull();
    expect((await dashboard(service.url, 'SignOutEverywhere', {}, laptop)).body.data).toEqual({ signOutEverywhere: true });
    expect(code(await whoAmI(laptop))).toBe('OPERATION_NOT_ALLOWED');
    expect(code(await whoAmI(phone))).toBe('OPERATION_NOT_ALLOWED');
  });

  test('an API key cannot sign a session out, and only SignUp and SignIn pass without credentials', async () => {
    const { apiKey } = await signUpSeller(service.url);
    const res = await request(service.url).post('/graphql').set('Authorization', `Bearer ${apiKey}`).send({ query: 'mutation { signOutEverywhere }' });
    expect(code(res)).toBe('SESSION_REQUIRED');
    for (const name of ['SignOut', 'SignOutEverywhere', 'VerifyEmail', 'CurrentSeller']) {
      expect(code(await dashboard(service.url, name, { token: 'x' }))).toBe('OPERATION_NOT_ALLOWED');
    }
  });

  test("one seller's session never reads another seller's payment", async () => {
    const mine = await signUpSeller(service.url);
    const theirs = await signUpSeller(service.url);
    const paymentId = (await sellerClient(service.url, theirs.apiKey).create(VALID_PAYMENT)).body.data.id;
    const send = (query: string, variables: object = {}) =>
      request(service.url).post('/graphql').set('Cookie', mine.session.cookie).set('X-CSRF-Token', mine.session.csrfToken).send({ query, variables });
    expect(code(await send('query($id: ID!) { payment(id: $id) { id } }', { id: paymentId }))).toBe('PAYMENT_NOT_FOUND');
    expect((await send('{ payments { items { id } } }')).body.data.payments.items).toEqual([]);
    expect(code(await send('mutation($shopId: ID) { requestWithdrawal(amount: 1000, shopId: $shopId) { id } }', { shopId: theirs.shopId }))).toBe('SHOP_NOT_FOUND');
  });
});

describe('e-mail verification', () => {
  const tokens = new Map<string, string>();
  /** The token of the verification link mailed to the seller (read once from the mail, then remembered). */
  const linkFor = async (email: string) => {
    if (!tokens.has(email)) tokens.set(email, await mail.linkTokenTo(email, /Verify your email/));
    return tokens.get(email)!;
  };

  test('the link arrives by mail (text and HTML, from BASE_URL), and is never written to the log', async () => {
    const seller = await signUpSeller(service.url);
    const received = await mail.mailTo(seller.email, /Verify your email/);
    const link = received.links.find((l) => l.searchParams.has('token'))!;
    expect(link.origin + link.pathname).toBe('https://pay.example.test/dashboard/verify-email');
    expect(received.html).toContain(link.href.replace(/&/g, '&amp;'));
    tokens.set(seller.email, link.searchParams.get('token')!);
    expect(JSON.stringify(service.logs)).not.toContain(link.searchParams.get('token'));
  });

  const withdraw = (session: DashboardSession) =>
    request(service.url).post('/graphql').set('Cookie', session.cookie).set('X-CSRF-Token', session.csrfToken).send({ query: 'mutation { requestWithdrawal(amount: 1000) { id } }' });

  test('no withdrawal before the address is verified; the link works once, for its own seller only', async () => {
    const seller = await signUpSeller(service.url);
    const other = await signUpSeller(service.url);
    expect(code(await withdraw(seller.session))).toBe('EMAIL_NOT_VERIFIED');
    const token = await linkFor(seller.email);
    expect(code(await dashboard(service.url, 'VerifyEmail', { token }, other.session))).toBe('VERIFICATION_TOKEN_INVALID');
    const verified = await dashboard(service.url, 'VerifyEmail', { token }, seller.session);
    expect(verified.body.data.verifyEmail.emailVerifiedAt).toEqual(expect.any(String));
    expect(code(await dashboard(service.url, 'VerifyEmail', { token }, seller.session))).toBe('VERIFICATION_TOKEN_INVALID');
    // Now only the balance rules speak (nothing has been paid yet).
    expect(code(await withdraw(seller.session))).toBe('WITHDRAWAL_EXCEEDS_BALANCE');
  });

  test('a new link can be asked for while unverified (the first mail may have been lost), and it works', async () => {
    const seller = await signUpSeller(service.url);
    const first = await linkFor(seller.email);
    expect((await dashboard(service.url, 'ResendVerificationEmail', {}, seller.session)).body.data).toEqual({ resendVerificationEmail: true });
    const second = await mail.linkTokenTo(seller.email, /Verify your email/);
    expect(second).not.toBe(first);
    expect((await dashboard(service.url, 'VerifyEmail', { token: second }, seller.session)).body.data.verifyEmail.emailVerifiedAt).toEqual(expect.any(String));
    expect((await dashboard(service.url, 'ResendVerificationEmail', {}, seller.session)).body.data).toEqual({ resendVerificationEmail: false });
  });

  test('an expired link is refused', async () => {
    const seller = await signUpSeller(service.url);
    await sql(`update "email_verifications" set "expires_at" = now() - interval '1 second' where "seller_id" = ?`, [seller.sellerId]);
    expect(code(await dashboard(service.url, 'VerifyEmail', { token: await linkFor(seller.email) }, seller.session))).toBe('VERIFICATION_TOKEN_INVALID');
  });
});

describe('SELLER_SIGNUP=invite, over http', () => {
  const closed = useTestService({ SELLER_SIGNUP: 'invite', BASE_URL: 'http://localhost:3000' });

  test('refuses self sign-up', async () => {
    const res = await dashboard(closed.url, 'SignUp', { input: { email: newEmail(), password: STRONG_PASSWORD, shopName: 'S' } });
    expect(code(res)).toBe('SIGN_UP_CLOSED');
    expect(message(res)).toBe('Sign-up is by invitation only');
  });

  test('over plain http the cookies are still __Host- and Secure (browsers take them from localhost; SESSION_COOKIES_INSECURE=1 drops both), httpOnly and SameSite=Strict', async () => {
    const donor = await signUpSeller(service.url);
    const http = await closedSignIn(donor.sellerId);
    expect(http).toMatch(/; Secure/);
    expect(http).toMatch(/; HttpOnly/);
    expect(http).toMatch(/; SameSite=Strict/);
  });

  /** A seller made by the operator on the invite-only service, given a password (copied from `donor`, a seller of the other
   * service who signed up with STRONG_PASSWORD) as the invitation flow will. */
  async function closedSignIn(donor: string): Promise<string> {
    const { seller } = await closed.createShop();
    const [row] = await service.em().execute('select "password_hash" from "sellers" where "id" = ?', [donor]);
    await closed.em().execute('update "sellers" set "password_hash" = ? where "id" = ?', [row.password_hash, seller.id]);
    const res = await dashboard(closed.url, 'SignIn', { email: seller.email, password: STRONG_PASSWORD });
    return ([] as string[]).concat(res.headers['set-cookie']).find((c) => c.startsWith('__Host-hcp_session='))!;
  }
});

describe('no second account that looks like the first', () => {
  test('sign-up, the operator creating a seller or an admin: full-width letters are the same address, zero-width and mixed-script ones are refused', async () => {
    const local = `look${randomBytes(4).toString('hex')}`;
    const first = await signUpSeller(service.url, `${local}@example.com`);
    const signUp = (email: string) => dashboard(service.url, 'SignUp', { input: { email, password: STRONG_PASSWORD, shopName: 'Look-alike' } });
    const fullWidth = [...local].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join('');
    expect((await signUp(`${fullWidth}@example.com`)).body.errors?.[0]?.extensions?.code).toBe('EMAIL_TAKEN');
    for (const lookAlike of [`${local}\u200b@example.com`, `${local.replace('o', '\u043e')}@example.com`, `${local}\u2060@example.com`]) {
      const res = await signUp(lookAlike);
      expect([lookAlike, res.body.errors?.[0]?.extensions?.code]).toEqual([lookAlike, 'EMAIL_INVALID']);
    }
    const { createAdmin } = await import('../../../src/modules/admins/admin.service');
    await expect(createAdmin(service.em(), { email: `ops\u200b${local}@payments.example`, role: 'support' as never, tokenTtlDays: 1 })).rejects.toMatchObject({ code: 'EMAIL_INVALID' });
    await expect(service.createShop({ email: `${local.replace('o', '\u03bf')}@example.com` })).rejects.toMatchObject({ code: 'EMAIL_INVALID' });
    // One account only, the first.
    const rows = await service.em().getConnection().execute(`select "id" from "sellers" where "email" like ?`, [`%${local.slice(-8)}%`]);
    expect(rows.map((r) => r.id)).toEqual([first.sellerId]);
  });
});
