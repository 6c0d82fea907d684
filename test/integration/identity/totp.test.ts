import request from 'supertest';
import { totpCode } from '../../../src/modules/identity/totp';
import { dashboard, sessionCookieOf, signUpSeller, type DashboardSession } from '../../support/dashboard-client';
import { useTestService } from '../../support/test-service';

/**
 * Two-factor sign-in for sellers (TOTP, RFC 6238, with recovery codes; docs/dashboard.md), attacked
 * through /graphql as the dashboard sends it. Codes are computed from the secret the enrolment showed.
 */
const SECRETS_KEY = 'a1'.repeat(32);
// TOTP secrets sealed at rest (src/modules/identity/secret-box.ts): every test below runs through the box.
const service = useTestService({ ACCOUNT_SECRETS_KEY: SECRETS_KEY });

const code = (res: request.Response) => res.body.errors?.[0]?.extensions?.code ?? null;
const sql = (query: string, params: unknown[] = []) => service.em().execute(query, params);
const signIn = (email: string, password: string, authCode?: string) => dashboard(service.url, 'SignIn', { email, password, code: authCode });
const sessionOf = (res: request.Response): DashboardSession => ({ cookie: sessionCookieOf(res), csrfToken: res.body.data.signIn.csrfToken });
/** The code of the next 30-second step: valid now (one step of drift is allowed) and not used by anything before. */
const nextCode = (secret: string) => totpCode(secret, Date.now() + 30_000);

/** A seller with two-factor on: the secret and recovery codes. */
async function withTwoFactor() {
  const seller = await signUpSeller(service.url);
  const enrolment = (await dashboard(service.url, 'BeginTwoFactor', { password: seller.password }, seller.session)).body.data.beginTwoFactor;
  const confirmed = await dashboard(service.url, 'ConfirmTwoFactor', { code: totpCode(enrolment.secret) }, seller.session);
  return { ...seller, secret: enrolment.secret as string, recoveryCodes: confirmed.body.data.confirmTwoFactor as string[] };
}

test('enrolment shows the secret once with an otpauth URI and a QR code drawn by the server; it is in force only after a first code', async () => {
  const seller = await signUpSeller(service.url);
  // The password first: a stolen session alone cannot enrol an authenticator.
  expect(code(await dashboard(service.url, 'BeginTwoFactor', { password: 'not-the-password-at-all' }, seller.session))).toBe('PASSWORD_INCORRECT');
  const begun = await dashboard(service.url, 'BeginTwoFactor', { password: seller.password }, seller.session);
  const { secret, otpauthUri, qrCodeSvg } = begun.body.data.beginTwoFactor;
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const uri = new URL(otpauthUri);
  expect(uri.protocol).toBe('otpauth:');
  expect(uri.searchParams.get('secret')).toBe(secret);
  expect(uri.searchParams.get('issuer')).toBe('Payments');
  expect(uri.searchParams.get('period')).toBe('30');
  expect(qrCodeSvg).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  expect(qrCodeSvg).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);

  // Not yet in force: sign-in needs no code.
  expect(code(await signIn(seller.email, seller.password))).toBeNull();
  expect(code(await dashboard(service.url, 'ConfirmTwoFactor', { code: '000000' }, seller.session))).toBe('AUTHENTICATION_CODE_INVALID');
  const confirmed = await dashboard(service.url, 'ConfirmTwoFactor', { code: totpCode(secret) }, seller.session);
  const codes = confirmed.body.data.confirmTwoFactor as string[];
  expect(codes).toHaveLength(10);
  expect((await dashboard(service.url, 'TwoFactorStatus', {}, seller.session)).body.data.currentSeller.twoFactorEnabled).toBe(true);
  // The secret is sealed in the database (ACCOUNT_SECRETS_KEY): a copy of the table yields no second factor.
  const [{ totp_secret: sealed }] = await sql('select "totp_secret" from "sellers" where "id" = ?', [seller.sellerId]);
  expect(sealed).toMatch(/^aes2:[0-9a-f]{8}:/);
  expect(sealed).not.toContain(secret);
  expect(code(await dashboard(service.url, 'BeginTwoFactor', { password: seller.password }, seller.session))).toBe('TWO_FACTOR_ALREADY_ON');
  // Recovery codes are stored hashed only.
  const stored = JSON.stringify(await sql('select * from "recovery_codes" where "account_id" = ?', [seller.sellerId]));
  for (const recovery of codes) expect(stored).not.toContain(recovery.replace('-', ''));
  expect(stored.match(/code_hash/g)).toHaveLength(10);
});

test('sign-in then needs the code; a wrong password and a wrong code get the same answer once a code is sent', async () => {
  const seller = await withTwoFactor();
  const noCode = await signIn(seller.email, seller.password);
  expect(code(noCode)).toBe('AUTHENTICATION_CODE_REQUIRED');
  expect(noCode.headers['set-cookie']).toBeUndefined();
  const wrongCode = await signIn(seller.email, seller.password, '000000');
  const wrongPassword = await signIn(seller.email, 'not-the-password-at-all', nextCode(seller.secret));
  expect(code(wrongCode)).toBe('SIGN_IN_FAILED_WITH_CODE');
  expect({ status: wrongPassword.status, errors: wrongPassword.body.errors }).toEqual({ status: wrongCode.status, errors: wrongCode.body.errors });
  expect(wrongCode.body.errors[0].message).toBe('Email, password or authentication code is incorrect');
  const good = await signIn(seller.email, seller.password, nextCode(seller.secret));
  expect(good.body.data.signIn.seller).toMatchObject({ id: seller.sellerId, twoFactorEnabled: true });
  expect(code(await dashboard(service.url, 'CurrentSeller', {}, sessionOf(good)))).toBeNull();
});

test('a code works once: the same code again within its window is refused (replay), even from another browser', async () => {
  const seller = await withTwoFactor();
  const once = nextCode(seller.secret);
  expect(code(await signIn(seller.email, seller.password, once))).toBeNull();
  expect(code(await signIn(seller.email, seller.password, once))).toBe('SIGN_IN_FAILED_WITH_CODE');
});

test('the code that confirmed enrolment cannot sign in afterwards', async () => {
  const seller = await signUpSeller(service.url);
  const { secret } = (await dashboard(service.url, 'BeginTwoFactor', { password: seller.password }, seller.session)).body.data.beginTwoFactor;
  const first = nextCode(secret);
  expect(code(await dashboard(service.url, 'ConfirmTwoFactor', { code: first }, seller.session))).toBeNull();
  expect(code(await signIn(seller.email, seller.password, first))).toBe('SIGN_IN_FAILED_WITH_CODE');
});

test('a recovery code signs in once, in any case and with or without its dash', async () => {
  const seller = await withTwoFactor();
  const [recovery, other] = seller.recoveryCodes;
  expect(code(await signIn(seller.email, seller.password, recovery.toUpperCase()))).toBeNull();
  expect(code(await signIn(seller.email, seller.password, recovery))).toBe('SIGN_IN_FAILED_WITH_CODE');
  expect(code(await signIn(seller.email, seller.password, other.replace('-', '')))).toBeNull();
  // Another seller's recovery code is nothing to this account.
  const stranger = await withTwoFactor();
  expect(code(await signIn(seller.email, seller.password, stranger.recoveryCodes[0]))).toBe('SIGN_IN_FAILED_WITH_CODE');
});

test('wrong codes count towards the lockout: 10 lock the account for 30 minutes, even with the right code after', async () => {
  const seller = await withTwoFactor();
  for (let i = 0; i < 9; i++) expect(code(await signIn(seller.email, seller.password, String(100000 + i)))).toBe('SIGN_IN_FAILED_WITH_CODE');
  expect(code(await signIn(seller.email, seller.password, '999999'))).toBe('ACCOUNT_LOCKED');
  expect(code(await signIn(seller.email, seller.password, nextCode(seller.secret)))).toBe('ACCOUNT_LOCKED');
});

test('turning two-factor off needs the password and a code; afterwards sign-in needs no code', async () => {
  const seller = await withTwoFactor();
  const session = sessionOf(await signIn(seller.email, seller.password, seller.recoveryCodes[0]));
  const disable = (password: string, authCode: string) => dashboard(service.url, 'DisableTwoFactor', { password, code: authCode }, session);
  expect(code(await disable('not-the-password-at-all', nextCode(seller.secret)))).toBe('PASSWORD_INCORRECT');
  expect(code(await disable(seller.password, '123123'))).toBe('AUTHENTICATION_CODE_INVALID');
  expect(code(await disable(seller.password, seller.recoveryCodes[0]))).toBe('AUTHENTICATION_CODE_INVALID'); // used already
  expect(code(await dashboard(service.url, 'DisableTwoFactor', { password: seller.password, code: nextCode(seller.secret) }))).toBe('OPERATION_NOT_ALLOWED');
  expect((await disable(seller.password, nextCode(seller.secret))).body.data).toEqual({ disableTwoFactor: true });
  expect(code(await signIn(seller.email, seller.password))).toBeNull();
  const [{ count }] = await sql('select count(*)::int as count from "recovery_codes" where "account_id" = ?', [seller.sellerId]);
  expect(count).toBe(0);
});

test("an API key cannot enrol a seller's two-factor (session operations only)", async () => {
  const seller = await signUpSeller(service.url);
  const res = await request(service.url).post('/graphql').set('Authorization', `Bearer ${seller.apiKey}`).send({ query: 'mutation { beginTwoFactor(password: "violet-tundra-harbour-42") { secret } }' });
  expect(code(res)).toBe('SESSION_REQUIRED');
});
