import request from 'supertest';
import { totpCode } from '../../../src/modules/identity/totp';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { adminClient, eventually, type AdminClient } from '../../support/admin-client';
import { nextCode } from '../../support/admin-session';
import { checkoutClient } from '../../support/checkout-client';
import { sessionOf, signInFrom, signUpInBrowser } from '../../support/cookie-jar';
import { dashboard, newEmail } from '../../support/dashboard-client';
import { useMailServer } from '../../support/mail-server';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';
import { useReceiver } from '../../support/webhook-receiver';

/**
 * Squatting an address (docs/dashboard.md, "An address nobody has verified"): an attacker signs up with the
 * victim's address, which they cannot read, points the webhook at themselves, sets a payout account and puts
 * the account behind their own authenticator. The victim later resets the password from the mailed link:
 * the account is theirs, clean. Through the dashboard's GraphQL document and a real SMTP server.
 * Then an owner admin's reset of a seller's two-factor (audited, mailed, owners only).
 */
const mail = useMailServer();
const attackerHook = useReceiver();
const service = useTestService(() => ({
  SMTP_URL: mail.url,
  RATE_LIMIT_PER_MINUTE: '100000',
  AUTH_FAILURES_PER_MINUTE: '100000',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1',
  WEBHOOK_RETRY_BASE_DELAY_MS: '50',
}));
let owner: AdminClient;
beforeAll(async () => {
  owner = await adminClient(service, AdminRole.OWNER);
});

const code = (res: request.Response) => res.body.errors?.[0]?.extensions?.code ?? null;
const sql = (query: string, params: unknown[] = []): Promise<any[]> => service.em().execute(query, params);
const VICTIM_PASSWORD = 'the-real-owner-chooses-this-1';

/** Pays one payment of the shop whose key this is, through the public checkout. */
async function paidPayment(apiKey: string): Promise<string> {
  const id = (await sellerClient(service.url, apiKey).create(VALID_PAYMENT)).body.data.id as string;
  const paid = await checkoutClient(service.url).pay(id, '4242424242424242');
  expect(paid.body.data.submitCard.status).toBe('COMPLETED');
  return id;
}

describe('an address squatted before its owner verified it', () => {
  const victim = newEmail();
  let attacker: Awaited<ReturnType<typeof signUpInBrowser>>;
  let attackerSecret: string;
  let attackerRecoveryCodes: string[];

  beforeAll(async () => {
    // The attacker signs up with the victim's address (the verification mail goes to the victim, unread).
    attacker = await signUpInBrowser(service.url, victim, 'squatter-password-0001');
    const as = sessionOf(attacker.browser);
    expect(code(await dashboard(service.url, 'SetWebhookUrl', { url: attackerHook.url, currentPassword: attacker.password }, as))).toBeNull();
    expect(code(await dashboard(service.url, 'SetPayoutAccount', { holder: 'Mallory', accountNumber: 'GB33BUKB20201555555555', currentPassword: attacker.password }, as))).toBeNull();
    attackerSecret = (await dashboard(service.url, 'BeginTwoFactor', { password: attacker.password }, as)).body.data.beginTwoFactor.secret;
    attackerRecoveryCodes = (await dashboard(service.url, 'ConfirmTwoFactor', { code: totpCode(attackerSecret) }, as)).body.data.confirmTwoFactor;
    expect(attackerRecoveryCodes).toHaveLength(10);
    // Before the victim acts: the attacker's key takes payments and their webhook hears of them.
    await paidPayment(attacker.apiKey);
    await eventually(async () => attackerHook.received.length > 0, 10_000, 'the attacker hears of the payment');
  });

  test('without the victim, the victim cannot sign in: the authenticator is the attacker\'s', async () => {
    const res = (await signInFrom(service.url, victim, VICTIM_PASSWORD)).res;
    expect(code(res)).toBe('SIGN_IN_FAILED');
  });

  test('the victim resets the password from the mailed link and gets the account clean', async () => {
    expect((await dashboard(service.url, 'RequestPasswordReset', { email: victim })).body.data).toEqual({ requestPasswordReset: true });
    const token = await mail.linkTokenTo(victim, /Reset your password/);
    expect((await dashboard(service.url, 'ResetPassword', { token, password: VICTIM_PASSWORD })).body.data).toEqual({ resetPassword: true });
    const notice = await mail.mailTo(victim, /Your account is yours again/);
    expect(notice.text).toContain('two-factor authentication was turned off');

    // The attacker is out: key, session, password, authenticator and recovery codes.
    expect((await sellerClient(service.url, attacker.apiKey).create(VALID_PAYMENT)).status).toBe(401);
    expect(code(await dashboard(service.url, 'Account', {}, sessionOf(attacker.browser)))).toBe('OPERATION_NOT_ALLOWED');
    expect(code((await signInFrom(service.url, victim, attacker.password, attacker.browser.jar, nextCode(attackerSecret))).res)).toBe('SIGN_IN_FAILED_WITH_CODE');
    expect((await sql(`select count(*)::int as n from "recovery_codes" where "account_id" = ?`, [attacker.sellerId]))[0].n).toBe(0);
    expect((await sql(`select count(*)::int as n from "known_devices" where "account_id" = ?`, [attacker.sellerId]))[0].n).toBe(0);

    // The victim signs in with the new password alone (no authenticator asked), verified, nothing of the attacker's left.
    const signedIn = await signInFrom(service.url, victim, VICTIM_PASSWORD);
    expect(code(signedIn.res)).toBeNull();
    const me = signedIn.res.body.data.signIn.seller;
    expect(me).toMatchObject({ id: attacker.sellerId, twoFactorEnabled: false, emailVerifiedAt: expect.any(String) });
    const browser = signedIn.browser!;
    const payout = await request(service.url).post('/graphql').set('Cookie', browser.jar.header()).set('X-CSRF-Token', browser.csrfToken).send({ query: '{ currentSeller { payoutAccount { holder } } }' });
    expect(payout.body).toEqual({ data: { currentSeller: { payoutAccount: null } } });
    expect((await dashboard(service.url, 'Me', {}, sessionOf(browser))).body.data.currentSeller.shop).toBeNull();
    const [shop] = await sql(`select "webhook_url", "deleted_at", "deleted_by_admin" from "shops" where "id" = ?`, [attacker.shopId]);
    expect(shop).toMatchObject({ webhook_url: null, deleted_at: expect.anything(), deleted_by_admin: false });
    expect(await sql(`select "payout_account_holder", "payout_account_number" from "sellers" where "id" = ?`, [attacker.sellerId])).toEqual([
      { payout_account_holder: null, payout_account_number: null },
    ]);

    // A new shop (the spec's way to a new key, shown once): it works, and the attacker hears of nothing.
    const heardBefore = attackerHook.received.length;
    const created = await dashboard(service.url, 'CreateMyShop', { shopName: 'The Real Shop', currentPassword: VICTIM_PASSWORD }, sessionOf(browser));
    expect(code(created)).toBeNull();
    await paidPayment(created.body.data.createMyShop.apiKey);
    const developers = await dashboard(service.url, 'Developers', {}, sessionOf(browser));
    expect(developers.body.data.currentShop.webhookUrl).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(attackerHook.received.length).toBe(heardBefore);

    // And the address is verified, so the victim may withdraw (only the balance rules speak now).
    expect(code(await dashboard(service.url, 'RequestWithdrawal', { amount: 1_000_000 }, sessionOf(browser)))).toBe('WITHDRAWAL_EXCEEDS_BALANCE');
  });

  test('the reset link works once: the attacker cannot replay a used one, and a new one goes to the victim only', async () => {
    expect((await dashboard(service.url, 'RequestPasswordReset', { email: victim })).body.data).toEqual({ requestPasswordReset: true });
    const token = await mail.linkTokenTo(victim, /Reset your password/);
    expect(code(await dashboard(service.url, 'ResetPassword', { token, password: 'another-fine-password-2' }))).toBeNull();
    expect(code(await dashboard(service.url, 'ResetPassword', { token, password: 'the-attacker-tries-again-3' }))).toBe('LINK_INVALID');
  });
});

test('a verified account is not wiped by a password reset: key, webhook and two-factor stay', async () => {
  const email = newEmail();
  const seller = await signUpInBrowser(service.url, email);
  const verification = await mail.linkTokenTo(email, /Verify your email/);
  expect(code(await dashboard(service.url, 'VerifyEmail', { token: verification }, sessionOf(seller.browser)))).toBeNull();
  expect(code(await dashboard(service.url, 'SetWebhookUrl', { url: attackerHook.url, currentPassword: seller.password }, sessionOf(seller.browser)))).toBeNull();
  const secret = (await dashboard(service.url, 'BeginTwoFactor', { password: seller.password }, sessionOf(seller.browser))).body.data.beginTwoFactor.secret;
  expect(code(await dashboard(service.url, 'ConfirmTwoFactor', { code: totpCode(secret) }, sessionOf(seller.browser)))).toBeNull();

  await dashboard(service.url, 'RequestPasswordReset', { email });
  const token = await mail.linkTokenTo(email, /Reset your password/);
  expect(code(await dashboard(service.url, 'ResetPassword', { token, password: VICTIM_PASSWORD }))).toBeNull();
  await mail.mailTo(email, /Your password was changed/);

  expect((await sellerClient(service.url, seller.apiKey).create(VALID_PAYMENT)).status).toBe(200);
  expect((await sql(`select "webhook_url" from "shops" where "id" = ?`, [seller.shopId]))[0].webhook_url).toBe(attackerHook.url);
  expect(code((await signInFrom(service.url, email, VICTIM_PASSWORD)).res)).toBe('AUTHENTICATION_CODE_REQUIRED');
});

describe("an owner admin resets a seller's two-factor", () => {
  const RESET = 'mutation ($s: ID!, $r: String!) { resetSellerTwoFactor(sellerId: $s, reason: $r) { id } }';

  async function sellerWithTwoFactor() {
    const seller = await signUpInBrowser(service.url);
    const secret = (await dashboard(service.url, 'BeginTwoFactor', { password: seller.password }, sessionOf(seller.browser))).body.data.beginTwoFactor.secret;
    expect(code(await dashboard(service.url, 'ConfirmTwoFactor', { code: totpCode(secret) }, sessionOf(seller.browser)))).toBeNull();
    return { ...seller, secret };
  }
  const twoFactorOn = async (sellerId: string) => (await sql(`select "totp_enabled_at" from "sellers" where "id" = ?`, [sellerId]))[0].totp_enabled_at !== null;

  test('turns it off, with the reason in the audit log; the sessions end and the seller is mailed', async () => {
    const seller = await sellerWithTwoFactor();
    const answer = await owner.run(RESET, { s: seller.sellerId, r: 'Lost phone; identity checked by video call' });
    expect(answer.errors).toBeUndefined();
    expect(answer.data.resetSellerTwoFactor.id).toBe(seller.sellerId);
    expect(await twoFactorOn(seller.sellerId)).toBe(false);
    expect((await sql(`select count(*)::int as n from "recovery_codes" where "account_id" = ?`, [seller.sellerId]))[0].n).toBe(0);
    expect(code(await dashboard(service.url, 'Account', {}, sessionOf(seller.browser)))).toBe('OPERATION_NOT_ALLOWED');
    const log = await owner.ok('query ($t: String) { auditLog(targetId: $t) { items { action reason targetType adminId actor } } }', { t: seller.sellerId });
    expect(log.auditLog.items).toEqual([
      { action: 'seller.two_factor_reset', reason: 'Lost phone; identity checked by video call', targetType: 'seller', adminId: owner.admin.id, actor: owner.admin.email },
    ]);
    const notice = await mail.mailTo(seller.email, /Two-factor authentication was turned off by our team/);
    expect(notice.text).toContain('turn two-factor on again');
    // The password alone signs in now.
    expect(code((await signInFrom(service.url, seller.email, seller.password)).res)).toBeNull();
  });

  test('a reason is required, and a seller without two-factor is refused; nothing is audited', async () => {
    const seller = await sellerWithTwoFactor();
    expect((await owner.run(RESET, { s: seller.sellerId, r: '  ' })).errors?.[0]?.extensions?.code).toBe('REASON_REQUIRED');
    expect(await twoFactorOn(seller.sellerId)).toBe(true);
    const plain = await signUpInBrowser(service.url);
    expect((await owner.run(RESET, { s: plain.sellerId, r: 'lost phone' })).errors?.[0]?.extensions?.code).toBe('TWO_FACTOR_NOT_STARTED');
    expect((await sql(`select count(*)::int as n from "audit_log" where "target_id" in (?, ?)`, [seller.sellerId, plain.sellerId]))[0].n).toBe(0);
  });

  test('support and finance admins, the seller\'s own session, its key and the public are refused; two-factor stays on', async () => {
    const seller = await sellerWithTwoFactor();
    const variables = { s: seller.sellerId, r: 'social engineering attempt' };
    for (const role of [AdminRole.SUPPORT, AdminRole.FINANCE]) {
      const admin = await adminClient(service, role);
      const answer = await admin.run(RESET, variables);
      expect([role, answer.errors?.[0]?.extensions?.code, answer.errors?.[0]?.message]).toEqual([role, 'FORBIDDEN_ROLE', `resetSellerTwoFactor needs the owner role; your admin role is ${role}`]);
      const [refusal] = await sql(`select "action", "target_id" from "audit_log" where "admin_id" = ?`, [admin.admin.id]);
      expect(refusal).toEqual({ action: 'access.refused', target_id: 'resetSellerTwoFactor' });
    }
    const asSession = await request(service.url).post('/graphql').set('Cookie', seller.browser.jar.header()).set('X-CSRF-Token', seller.browser.csrfToken).send({ query: RESET, variables });
    expect(code(asSession)).toBe('FORBIDDEN');
    const asKey = await request(service.url).post('/graphql').set('Authorization', `Bearer ${seller.apiKey}`).send({ query: RESET, variables });
    expect(code(asKey)).toBe('FORBIDDEN');
    expect(code(await request(service.url).post('/graphql').send({ query: RESET, variables }))).toBe('OPERATION_NOT_ALLOWED');
    expect(await twoFactorOn(seller.sellerId)).toBe(true);
    expect(mail.received.filter((m) => m.to.includes(seller.email) && /turned off by our team/.test(m.subject))).toEqual([]);
  });
});

