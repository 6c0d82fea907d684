import request from 'supertest';
import { getMetadataStorage } from 'type-graphql';
import { totpCode } from '../../../src/modules/identity/totp';
import { sha256Hex } from '../../../src/shared/secrets';
import { adminClient, type AdminClient } from '../../support/admin-client';
import { nextCode } from '../../support/admin-session';
import { checkoutClient } from '../../support/checkout-client';
import { sessionOf, signInFrom, signUpInBrowser, type Browser } from '../../support/cookie-jar';
import { dashboard } from '../../support/dashboard-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';
import { AdminRole } from '../../../src/modules/admins/admin-role';

/**
 * An open dashboard session against an owner admin's suspension of its seller, deactivation of its shop, or
 * deletion of its shop (docs/dashboard.md, "Standing of a session"). After each, every mutation a session may
 * run (the dashboard's own document, plus the two API mutations a session reaches with a document of its own)
 * is tried from the seller's open browser and from a fresh sign-in: each is refused, and the database holds
 * exactly what it held after the admin acted. A control walk with a seller in good standing shows each call
 * does real work when allowed, so the refusals are not an artefact of the variables.
 */
const service = useTestService({
  RATE_LIMIT_PER_MINUTE: '100000',
  AUTH_FAILURES_PER_MINUTE: '100000',
  // Nothing moves behind the test's back: deliveries wait (the snapshot would otherwise see attempts).
  WEBHOOK_WORKERS_IN_SERVICE: '0',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1',
});
let owner: AdminClient;
let finance: AdminClient;
beforeAll(async () => {
  owner = await adminClient(service, AdminRole.OWNER);
  finance = await adminClient(service, AdminRole.FINANCE);
});

const code = (res: request.Response) => res.body.errors?.[0]?.extensions?.code ?? null;
const sql = (query: string, params: unknown[] = []): Promise<any[]> => service.em().execute(query, params);
const NEW_PASSWORD = 'a-brand-new-passphrase-77';

/** A seller in good standing with everything the walk needs: money, a delivery, a pending enrolment, a second browser. */
async function preparedSeller() {
  const seller = await signUpInBrowser(service.url);
  await sql(`update "sellers" set "email_verified_at" = now() where "id" = ?`, [seller.sellerId]);
  await sql(`update "shops" set "webhook_url" = 'http://127.0.0.1:9/hook' where "id" = ?`, [seller.shopId]);
  const created = await sellerClient(service.url, seller.apiKey).create({ ...VALID_PAYMENT, amount: 10_000 });
  const paymentId = created.body.data.id as string;
  const paid = await checkoutClient(service.url).pay(paymentId, '4242424242424242');
  if (paid.body.data?.submitCard?.status !== 'COMPLETED') throw new Error(`payment not completed: ${JSON.stringify(paid.body)}`);
  const [delivery] = await sql(`select "id" from "webhook_deliveries" where "shop_id" = ?`, [seller.shopId]);
  const verificationToken = `verify-${seller.sellerId}`;
  await sql(`insert into "email_verifications" ("token_hash", "seller_id", "expires_at") values (?, ?, now() + interval '1 day')`, [sha256Hex(verificationToken), seller.sellerId]);
  const enrolment = await dashboard(service.url, 'BeginTwoFactor', { password: seller.password }, sessionOf(seller.browser));
  const totpSecret = enrolment.body.data.beginTwoFactor.secret as string;
  const other = (await signInFrom(service.url, seller.email, seller.password)).browser!;
  const [otherSession] = await sql(`select "id" from "seller_sessions" where "seller_id" = ? order by "created_at" desc, "id" desc limit 1`, [seller.sellerId]);
  return { ...seller, paymentId, deliveryId: delivery.id as string, verificationToken, totpSecret, other, otherSessionId: otherSession.id as string };
}
type Seller = Awaited<ReturnType<typeof preparedSeller>>;

/** A document of the session's own, with its cookies and CSRF token (what the dashboard's document does not hold). */
const raw = (query: string, variables: object = {}) => (browser: Browser) =>
  request(service.url).post('/graphql').set('Cookie', browser.jar.header()).set('X-CSRF-Token', browser.csrfToken).send({ query, variables });
const op = (name: string, variables: (s: Seller) => object = () => ({})) => (browser: Browser, s: Seller) => dashboard(service.url, name, variables(s), sessionOf(browser));

type Attempt = [field: string, run: (browser: Browser, s: Seller) => Promise<request.Response>];
/**
 * Every mutation a dashboard session may run, in an order where each can succeed for a seller in good standing.
 * Money first, then settings, then the account, then the shop; ending sessions last (a read-only session may
 * still sign out: that only takes access away).
 */
const WALK: Attempt[] = [
  ['createPayment', raw('mutation ($input: CreatePaymentInput!) { createPayment(input: $input) { payment { id } } }', { input: { amount: 1234, currency: 'usd', returnUrl: 'https://shop.example.com/thanks' } })],
  // The payout account before the withdrawal: a dashboard withdrawal needs one.
  ['setPayoutAccount', op('SetPayoutAccount', (s) => ({ holder: 'Mallory Mule', accountNumber: 'DE89370400440532013000', currentPassword: s.password }))],
  ['requestWithdrawal', op('RequestWithdrawal', () => ({ amount: 1000 }))],
  ['requestRefund', op('RequestRefund', (s) => ({ paymentId: s.paymentId, reason: 'the customer asked' }))],
  ['setWebhookUrl', op('SetWebhookUrl', (s) => ({ url: 'http://127.0.0.1:9/attacker', currentPassword: s.password }))],
  ['setWebhookEvents', raw('mutation { setWebhookEvents(events: ["payment.failed"]) { id } }')],
  ['rotateWebhookSecret', op('RotateWebhookSecret', (s) => ({ currentPassword: s.password }))],
  ['setMailSettings', op('SetMailSettings', () => ({ supportEmail: 'support@attacker.example', enabledTopics: [] }))],
  ['sendTestWebhook', op('SendTestWebhook')],
  // A type the walk's shop did not choose (setWebhookEvents above): streamed only, no delivery left retrying behind it.
  ['triggerTestEvent', raw('mutation { triggerTestEvent(event: "refund.failed") { eventId } }')],
  ['runLiveTest', op('RunLiveTest')],
  ['resendWebhookDelivery', op('ResendWebhookDelivery', (s) => ({ id: s.deliveryId }))],
  ['resendVerificationEmail', op('ResendVerificationEmail')],
  ['verifyEmail', op('VerifyEmail', (s) => ({ token: s.verificationToken }))],
  ['confirmTwoFactor', op('ConfirmTwoFactor', (s) => ({ code: totpCode(s.totpSecret) }))],
  ['disableTwoFactor', op('DisableTwoFactor', (s) => ({ password: s.password, code: nextCode(s.totpSecret) }))],
  ['beginTwoFactor', op('BeginTwoFactor', (s) => ({ password: s.password }))],
  ['changePassword', op('ChangePassword', (s) => ({ currentPassword: s.password, newPassword: NEW_PASSWORD }))],
  // After changePassword above: the new password is the current one.
  ['deleteMyShop', op('DeleteMyShop', () => ({ shopName: 'Standing Shop', currentPassword: NEW_PASSWORD }))],
  ['createMyShop', op('CreateMyShop', () => ({ shopName: 'Phoenix Shop', currentPassword: NEW_PASSWORD }))],
];
/** What a session whose shop an admin deactivated or closed may still run. */
const ENDING: Attempt[] = [
  ['revokeSession', op('RevokeSession', (s) => ({ id: s.otherSessionId }))],
  ['signOutEverywhere', op('SignOutEverywhere')],
  ['signOut', op('SignOut')],
];

/** Everything the seller owns or is, as rows (volatile last-seen times left out). */
async function snapshot(s: Seller) {
  const shops = `(select "id" from "shops" where "seller_id" = '${s.sellerId}')`;
  const rows = async (query: string) => JSON.parse(JSON.stringify(await sql(query)));
  const ifTable = async (table: string, query: string) => ((await sql(`select to_regclass(?) as t`, [table]))[0].t ? rows(query) : null);
  return {
    seller: await rows(`select * from "sellers" where "id" = '${s.sellerId}'`),
    shops: await rows(`select * from "shops" where "seller_id" = '${s.sellerId}' order by "id"`),
    apiKeys: await rows(`select * from "api_keys" where "shop_id" in ${shops} order by "id"`),
    payments: await rows(`select * from "payments" where "shop_id" in ${shops} order by "id"`),
    refunds: await rows(`select * from "refunds" where "payment_id" in (select "id" from "payments" where "shop_id" in ${shops}) order by "id"`),
    withdrawals: await rows(`select * from "withdrawals" where "seller_id" = '${s.sellerId}' order by "id"`),
    ledger: await rows(`select count(*)::int as n, max("id")::text as last from "ledger_entries" where "seller_id" = '${s.sellerId}'`),
    deliveries: await rows(`select * from "webhook_deliveries" where "shop_id" in ${shops} order by "id"`),
    events: await rows(`select count(*)::int as n from "webhook_events" where "shop_id" in ${shops}`),
    sessions: await rows(`select "id", "created_at", "revoked_at" from "seller_sessions" where "seller_id" = '${s.sellerId}' order by "id"`),
    verifications: await rows(`select * from "email_verifications" where "seller_id" = '${s.sellerId}' order by "token_hash"`),
    accountTokens: await rows(`select * from "account_tokens" where "account_id" = '${s.sellerId}' order by "token_hash"`),
    recoveryCodes: await rows(`select * from "recovery_codes" where "account_id" = '${s.sellerId}' order by "code_hash"`),
    devices: await rows(`select * from "known_devices" where "account_id" = '${s.sellerId}' order by "token_hash"`),
    audit: await rows(`select * from "audit_log" where "target_id" = '${s.sellerId}' or "target_id" in ${shops} order by "id"`),
    mailSettings: await ifTable('seller_mail_settings', `select * from "seller_mail_settings" where "seller_id" = '${s.sellerId}'`),
    // Mails the attempts would have caused (not the payment's receipt, which its worker sends meanwhile).
    mails: await ifTable('mail_outbox', `select "id", "kind" from "mail_outbox" where "seller_id" = '${s.sellerId}' and "payment_id" is null order by "id"`),
  };
}

/** Runs the walk from `browser`; answers each field's error code (null: it ran). */
async function walk(browser: Browser, s: Seller, attempts = WALK): Promise<[string, string | null][]> {
  const answers: [string, string | null][] = [];
  for (const [field, run] of attempts) answers.push([field, code(await run(browser, s))]);
  return answers;
}
const every = (answer: string | null, attempts = WALK) => attempts.map(([field]) => [field, answer]);
const allRevoked = async (s: Seller) => (await sql(`select count(*)::int as n from "seller_sessions" where "seller_id" = ? and "revoked_at" is null`, [s.sellerId]))[0].n === 0;

test('the walk covers every mutation a dashboard session may run', () => {
  const storage = getMetadataStorage();
  const sessionMutations = storage.mutations
    .filter((m) => storage.authorizedFields.some((a) => a.target === m.target && a.fieldName === m.methodName && (a.roles as string[]).some((r) => r === 'SELLER' || r === 'SESSION')))
    .map((m) => m.schemaName);
  expect([...WALK, ...ENDING].map(([field]) => field).sort()).toEqual([...new Set(sessionMutations)].sort());
});

test('control: for a seller in good standing each call of the walk runs (refused by nothing but its own rules)', async () => {
  const s = await preparedSeller();
  const answers = await walk(s.browser, s);
  // Each ran: the one answer not null is the delivery's own rule (a pending delivery is not re-sent), not a refusal.
  expect(answers).toEqual(WALK.map(([field]) => [field, field === 'resendWebhookDelivery' ? 'WEBHOOK_DELIVERY_PENDING' : null]));
  expect(await walk(s.browser, s, ENDING)).toEqual([['revokeSession', 'SESSION_NOT_FOUND'], ['signOutEverywhere', null], ['signOut', 'OPERATION_NOT_ALLOWED']]);
});

describe('an owner admin suspends the seller', () => {
  let s: Seller;
  let before: Awaited<ReturnType<typeof snapshot>>;
  beforeAll(async () => {
    s = await preparedSeller();
    await owner.ok('mutation ($id: ID!) { suspendSeller(id: $id, reason: "fraud review") { id } }', { id: s.sellerId });
    before = await snapshot(s);
  });

  test('every session of the seller ended with the suspension; the key answers 403 and a new sign-in is refused', async () => {
    expect(await allRevoked(s)).toBe(true);
    expect((await sellerClient(service.url, s.apiKey).create(VALID_PAYMENT)).status).toBe(403);
    expect(code((await signInFrom(service.url, s.email, s.password)).res)).toBe('SELLER_INACTIVE');
  });

  test('the open browser is refused every mutation, signing out included', async () => {
    expect(await walk(s.browser, s, [...WALK, ...ENDING])).toEqual(every('OPERATION_NOT_ALLOWED', [...WALK, ...ENDING]));
  });

  test('a session still open (not ended by the admin path) is checked on every request: SELLER_INACTIVE, and it is ended', async () => {
    const answers: [string, string | null][] = [];
    for (const attempt of WALK) {
      await sql(`update "seller_sessions" set "revoked_at" = null where "seller_id" = ?`, [s.sellerId]);
      answers.push(...(await walk(s.browser, s, [attempt])));
      expect(await allRevoked(s)).toBe(true);
    }
    expect(answers).toEqual(every('SELLER_INACTIVE'));
  });

  test('nothing changed: no payment, refund, withdrawal for finance to approve, setting, key, shop or factor', async () => {
    const after = await snapshot(s);
    // The previous test re-opened and ended the sessions on purpose: they are all ended again.
    expect({ ...after, sessions: after.sessions.map((r: { id: string }) => r.id) }).toEqual({ ...before, sessions: before.sessions.map((r: { id: string }) => r.id) });
    const queue = await finance.ok('query ($s: ID) { withdrawals(shopId: $s, limit: 100) { items { id } } }', { s: s.shopId });
    expect(queue.withdrawals.items).toEqual([]);
  });
});

describe('an owner admin deactivates the shop', () => {
  let s: Seller;
  let fresh: Browser;
  let before: Awaited<ReturnType<typeof snapshot>>;
  beforeAll(async () => {
    s = await preparedSeller();
    await owner.ok('mutation ($id: ID!) { deactivateShop(id: $id, reason: "chargeback review") { id } }', { id: s.shopId });
  });

  test('every session of the seller ended with the deactivation; the key answers 401', async () => {
    expect(await allRevoked(s)).toBe(true);
    expect((await sellerClient(service.url, s.apiKey).create(VALID_PAYMENT)).status).toBe(401);
  });

  test('the open browser is refused every mutation', async () => {
    const pre = await snapshot(s);
    expect(await walk(s.browser, s, [...WALK, ...ENDING])).toEqual(every('OPERATION_NOT_ALLOWED', [...WALK, ...ENDING]));
    expect(await snapshot(s)).toEqual(pre);
  });

  test('a new sign-in reads its history, and every change is refused (SHOP_INACTIVE_READ_ONLY) with nothing changed', async () => {
    fresh = (await signInFrom(service.url, s.email, s.password)).browser!;
    // A second browser, whose session the first may end.
    await signInFrom(service.url, s.email, s.password);
    const [{ id: other }] = await sql(`select "id" from "seller_sessions" where "seller_id" = ? and "revoked_at" is null order by "created_at" desc, "id" desc limit 1`, [s.sellerId]);
    s.otherSessionId = other;
    before = await snapshot(s);
    for (const screen of ['Overview', 'Payments', 'Withdrawals', 'Developers', 'Account']) expect([screen, code(await dashboard(service.url, screen, {}, sessionOf(fresh)))]).toEqual([screen, null]);
    const detail = await dashboard(service.url, 'PaymentDetail', { id: s.paymentId }, sessionOf(fresh));
    expect(detail.body.data.payment.status).toBe('COMPLETED');
    const refused = await dashboard(service.url, 'RequestWithdrawal', { amount: 1000 }, sessionOf(fresh));
    expect(refused.body.errors[0].message).toBe('Your shop is deactivated: you can still read its history, but nothing can be changed until our team reactivates it');
    expect(await walk(fresh, s)).toEqual(every('SHOP_INACTIVE_READ_ONLY'));
    expect(await snapshot(s)).toEqual(before);
  });

  test('it may still sign out (that only takes access away)', async () => {
    expect(await walk(fresh, s, ENDING.filter(([f]) => f !== 'signOutEverywhere'))).toEqual([['revokeSession', null], ['signOut', null]]);
    expect(code(await dashboard(service.url, 'Account', {}, sessionOf(fresh)))).toBe('OPERATION_NOT_ALLOWED');
  });

  test('once an owner reactivates the shop, a session changes things again', async () => {
    await owner.ok('mutation ($id: ID!) { reactivateShop(id: $id) { id } }', { id: s.shopId });
    const again = (await signInFrom(service.url, s.email, s.password)).browser!;
    expect(code(await raw('mutation { setWebhookEvents(events: ["payment.failed"]) { id } }')(again))).toBeNull();
  });
});

describe('an owner admin deletes the shop', () => {
  let s: Seller;
  let fresh: Browser;
  let before: Awaited<ReturnType<typeof snapshot>>;
  beforeAll(async () => {
    s = await preparedSeller();
    await owner.ok('mutation ($id: ID!) { deleteShop(id: $id, reason: "terms breached") { id } }', { id: s.shopId });
  });

  test('every session ended, the key answers 401, and the deletion is marked as an admin\'s', async () => {
    expect(await allRevoked(s)).toBe(true);
    expect((await sellerClient(service.url, s.apiKey).create(VALID_PAYMENT)).status).toBe(401);
    expect((await sql(`select "deleted_by_admin" from "shops" where "id" = ?`, [s.shopId]))[0].deleted_by_admin).toBe(true);
  });

  test('the open browser is refused every mutation', async () => {
    const pre = await snapshot(s);
    expect(await walk(s.browser, s, [...WALK, ...ENDING])).toEqual(every('OPERATION_NOT_ALLOWED', [...WALK, ...ENDING]));
    expect(await snapshot(s)).toEqual(pre);
  });

  test('a new sign-in reads the account, and every change is refused (SHOP_CLOSED_BY_ADMIN), creating a shop included', async () => {
    fresh = (await signInFrom(service.url, s.email, s.password)).browser!;
    before = await snapshot(s);
    expect((await dashboard(service.url, 'Account', {}, sessionOf(fresh))).body.data.currentSeller.id).toBe(s.sellerId);
    expect((await dashboard(service.url, 'Me', {}, sessionOf(fresh))).body.data.currentSeller.shop).toBeNull();
    const refused = await dashboard(service.url, 'CreateMyShop', { shopName: 'Phoenix Shop', currentPassword: s.password }, sessionOf(fresh));
    expect([code(refused), refused.body.errors[0].message]).toEqual([
      'SHOP_CLOSED_BY_ADMIN',
      'Your shop was closed by our team: you can still read your account, but nothing can be changed and a new shop cannot be opened from the dashboard; contact support',
    ]);
    expect(await walk(fresh, s)).toEqual(every('SHOP_CLOSED_BY_ADMIN'));
    expect(await snapshot(s)).toEqual(before);
    expect((await sql(`select count(*)::int as n from "shops" where "seller_id" = ?`, [s.sellerId]))[0].n).toBe(1);
  });

  test('an owner admin may open a new shop for the seller; then the session may change things again', async () => {
    await owner.ok('mutation ($s: ID!) { createShop(sellerId: $s, shop: { shopName: "Second Chance" }) { apiKey } }', { s: s.sellerId });
    const again = (await signInFrom(service.url, s.email, s.password)).browser!;
    expect(code(await raw('mutation { setWebhookEvents(events: ["payment.failed"]) { id } }')(again))).toBeNull();
  });
});

test("the seller's own deletion is not an admin's: the seller may create a new shop, whose key works", async () => {
  const s = await signUpInBrowser(service.url);
  expect(code(await dashboard(service.url, 'DeleteMyShop', { shopName: 'Standing Shop', currentPassword: s.password }, sessionOf(s.browser)))).toBeNull();
  const created = await dashboard(service.url, 'CreateMyShop', { shopName: 'Phoenix Shop', currentPassword: s.password }, sessionOf(s.browser));
  expect(code(created)).toBeNull();
  expect((await sellerClient(service.url, created.body.data.createMyShop.apiKey).create(VALID_PAYMENT)).status).toBe(200);
  expect((await sql(`select "deleted_by_admin" from "shops" where "id" = ?`, [s.shopId]))[0].deleted_by_admin).toBe(false);
});

test('a suspended seller cannot open a shop through the service either (not only through the session check)', async () => {
  const { createShopForExistingSeller } = await import('../../../src/modules/identity/shop-admin.service');
  const s = await signUpInBrowser(service.url);
  expect(code(await dashboard(service.url, 'DeleteMyShop', { shopName: 'Standing Shop', currentPassword: s.password }, sessionOf(s.browser)))).toBeNull();
  await sql(`update "sellers" set "status" = 'suspended' where "id" = ?`, [s.sellerId]);
  const deps = { credentials: service.services.credentials, checkWebhookUrl: service.services.webhooks.checkUrl, secrets: service.services.accounts.secrets };
  await expect(createShopForExistingSeller(service.em(), null, s.sellerId, { shopName: 'Sneaky' }, deps)).rejects.toMatchObject({ code: 'SELLER_INACTIVE' });
});
