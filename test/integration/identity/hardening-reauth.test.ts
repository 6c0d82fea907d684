import request from 'supertest';
import { totpCode } from '../../../src/modules/identity/totp';
import { ERROR_CATALOGUE } from '../../../src/shared/errors';
import { adminClient } from '../../support/admin-client';
import { dashboard, signUpSeller, type DashboardSession } from '../../support/dashboard-client';
import { sellerClient } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

/**
 * Re-authentication (docs/dashboard.md): from a dashboard session, changing the payout account, the webhook URL
 * or the webhook secret needs the current password, or a current authentication code when two-factor is on.
 * The attacker here holds a stolen session (its cookie and CSRF token, as an XSS or a borrowed laptop gives) but
 * not the password or the phone.
 */
const service = useTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1', ACCOUNT_SECRETS_KEY: 'c3'.repeat(32) });

const code = (res: request.Response) => res.body.errors?.[0]?.extensions?.code ?? null;
const message = (res: request.Response) => res.body.errors?.[0]?.message ?? null;
const sql = (query: string, params: unknown[] = []) => service.em().execute(query, params);
const HOOK = 'http://127.0.0.1:9/attacker-hook';
const IBAN = 'DE89370400440532013000';

/** The three sensitive changes, each with the proof given. */
const changes = {
  webhookUrl: (session: DashboardSession, proof: object = {}) => dashboard(service.url, 'SetWebhookUrl', { url: HOOK, ...proof }, session),
  webhookSecret: (session: DashboardSession, proof: object = {}) => dashboard(service.url, 'RotateWebhookSecret', { ...proof }, session),
  payoutAccount: (session: DashboardSession, proof: object = {}) => dashboard(service.url, 'SetPayoutAccount', { holder: 'Mallory', accountNumber: IBAN, ...proof }, session),
};

async function stored(sellerId: string) {
  const [row] = await sql(
    `select s."payout_account_number", s."payout_account_holder", s."failed_sign_ins", s."locked_until", sh."webhook_url", sh."webhook_secret"
       from "sellers" s join "shops" sh on sh."seller_id" = s."id" where s."id" = ?`,
    [sellerId],
  );
  return row;
}

test.each(Object.keys(changes) as (keyof typeof changes)[])('a stolen session alone cannot change the %s: REAUTHENTICATION_REQUIRED, nothing written, nothing counted', async (change) => {
  const seller = await signUpSeller(service.url);
  const before = await stored(seller.sellerId);
  const res = await changes[change](seller.session);
  expect(code(res)).toBe('REAUTHENTICATION_REQUIRED');
  expect(message(res)).toBe('Confirm it is you: enter your current password to make this change');
  expect(await stored(seller.sellerId)).toEqual(before);
  expect(before.failed_sign_ins).toBe(0);
});

test('a wrong password is refused and counts towards the lockout: 10 guesses lock the account, sign-in included', async () => {
  const seller = await signUpSeller(service.url);
  const guesses = [changes.webhookUrl, changes.webhookSecret, changes.payoutAccount];
  for (let i = 1; i <= 9; i++) {
    const res = await guesses[i % 3](seller.session, { currentPassword: `guess-number-${i}-wrong` });
    expect(code(res)).toBe('PASSWORD_INCORRECT');
  }
  expect((await stored(seller.sellerId)).failed_sign_ins).toBe(9);
  expect(code(await changes.payoutAccount(seller.session, { currentPassword: 'guess-number-10-wrong' }))).toBe('ACCOUNT_LOCKED');
  // Locked: the right password does not help the thief now, nor does a fresh sign-in.
  expect(code(await changes.payoutAccount(seller.session, { currentPassword: seller.password }))).toBe('ACCOUNT_LOCKED');
  expect(code(await dashboard(service.url, 'SignIn', { email: seller.email, password: seller.password }))).toBe('ACCOUNT_LOCKED');
  const after = await stored(seller.sellerId);
  expect([after.payout_account_number, after.webhook_url]).toEqual([null, null]);
});

test('with the current password each change goes through (the owner at the screen)', async () => {
  const seller = await signUpSeller(service.url);
  const proof = { currentPassword: seller.password };
  expect((await changes.webhookUrl(seller.session, proof)).body.data.setWebhookUrl.webhookUrl).toBe(HOOK);
  const rotated = (await changes.webhookSecret(seller.session, proof)).body.data.rotateWebhookSecret.webhookSecret;
  expect(rotated).toMatch(/^whsec_/);
  expect((await changes.payoutAccount(seller.session, proof)).body.data.setPayoutAccount).toEqual({ holder: 'Mallory', accountNumberMasked: '•••• 3000' });
  const after = await stored(seller.sellerId);
  // The secret is stored sealed with ACCOUNT_SECRETS_KEY, and opens to the one shown.
  expect(after.webhook_secret).toMatch(/^aes2:/);
  expect([after.webhook_url, service.services.accounts.secrets.open(after.webhook_secret), after.failed_sign_ins]).toEqual([HOOK, rotated, 0]);
});

test('input is checked before the proof: a refused URL or account number spends no password attempt', async () => {
  const seller = await signUpSeller(service.url);
  const badUrl = await dashboard(service.url, 'SetWebhookUrl', { url: 'ftp://example.com/hook', currentPassword: 'not-the-password-at-all' }, seller.session);
  expect(code(badUrl)).not.toBe('PASSWORD_INCORRECT');
  expect(code(badUrl)).not.toBeNull();
  const badNumber = await dashboard(service.url, 'SetPayoutAccount', { holder: 'Ann', accountNumber: '12', currentPassword: 'not-the-password-at-all' }, seller.session);
  expect(code(badNumber)).toBe('PAYOUT_ACCOUNT_NUMBER_INVALID');
  expect((await stored(seller.sellerId)).failed_sign_ins).toBe(0);
});

describe('with two-factor on', () => {
  async function withTwoFactor() {
    const seller = await signUpSeller(service.url);
    const begun = await dashboard(service.url, 'BeginTwoFactor', { password: seller.password }, seller.session);
    const secret = begun.body.data.beginTwoFactor.secret as string;
    await dashboard(service.url, 'ConfirmTwoFactor', { code: totpCode(secret) }, seller.session);
    return { ...seller, secret };
  }
  const nextCode = (secret: string) => totpCode(secret, Date.now() + 30_000);

  test('the password alone is not enough: a current code is asked for, a wrong one counts, a right one works once', async () => {
    const seller = await withTwoFactor();
    const passwordOnly = await changes.payoutAccount(seller.session, { currentPassword: seller.password });
    expect(code(passwordOnly)).toBe('REAUTHENTICATION_REQUIRED');
    expect(message(passwordOnly)).toBe((ERROR_CATALOGUE.REAUTHENTICATION_REQUIRED.message as (twoFactor: boolean) => string)(true));
    expect(code(await changes.payoutAccount(seller.session, { code: '000000' }))).toBe('AUTHENTICATION_CODE_INVALID');
    expect((await stored(seller.sellerId)).failed_sign_ins).toBe(1);
    const good = nextCode(seller.secret);
    expect((await changes.payoutAccount(seller.session, { code: good })).body.data.setPayoutAccount.accountNumberMasked).toBe('•••• 3000');
    // The same code again (a replay by whoever watched it typed) is refused.
    expect(code(await changes.webhookUrl(seller.session, { code: good }))).toBe('AUTHENTICATION_CODE_INVALID');
    expect((await stored(seller.sellerId)).webhook_url).toBeNull();
  });
});

test("callers that are not a dashboard session are not asked: the shop's API key, an owner admin", async () => {
  const seller = await signUpSeller(service.url);
  const byKey = await request(service.url).post('/graphql').set('Authorization', `Bearer ${seller.apiKey}`).send({ query: `mutation { setWebhookUrl(url: "${HOOK}") { webhookUrl } }` });
  expect(byKey.body.data.setWebhookUrl.webhookUrl).toBe(HOOK);
  expect((await sellerClient(service.url, seller.apiKey).test()).status).toBe(200);
  const owner = await adminClient(service);
  const rotated = await owner.ok('mutation($s: ID!) { rotateWebhookSecret(shopId: $s) { webhookSecret } }', { s: seller.shopId });
  expect(rotated.rotateWebhookSecret.webhookSecret).toMatch(/^whsec_/);
});
