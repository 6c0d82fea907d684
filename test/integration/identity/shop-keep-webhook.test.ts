import { createHmac } from 'node:crypto';
import type request from 'supertest';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { adminClient, eventually } from '../../support/admin-client';
import { checkoutClient } from '../../support/checkout-client';
import { sessionOf, signInFrom, signUpInBrowser } from '../../support/cookie-jar';
import { dashboard, newEmail, signUpSeller, type DashboardSession } from '../../support/dashboard-client';
import { useMailServer } from '../../support/mail-server';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';
import { useReceiver } from '../../support/webhook-receiver';

/**
 * A new shop may keep the previous shop's webhook URL and events (docs/dashboard.md, "Developers"): createMyShop with
 * keepWebhook, after re-authentication, through the dashboard's GraphQL document. The secret and the key are new
 * whatever is kept. As an attacker: only the seller's own last shop is ever read (no shop is named by the caller), a
 * stolen session alone keeps nothing, and what a squatter set before the account was taken back from a reset link
 * never comes back, even if it were still on the deleted shop.
 */
const mail = useMailServer();
const hook = useReceiver();
const service = useTestService(() => ({
  SMTP_URL: mail.url,
  RATE_LIMIT_PER_MINUTE: '100000',
  AUTH_FAILURES_PER_MINUTE: '100000',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1',
}));

const code = (res: request.Response) => res.body.errors?.[0]?.extensions?.code ?? null;
const sql = (query: string, params: unknown[] = []): Promise<any[]> => service.em().execute(query, params);
const signature = (secret: string, body: Buffer) => createHmac('sha256', secret).update(body).digest('hex');
const EVENTS = ['payment.failed', 'refund.failed'];

async function ok(operation: string, variables: object, session: DashboardSession) {
  const res = await dashboard(service.url, operation, variables, session);
  expect([operation, res.body.errors]).toEqual([operation, undefined]);
  return res.body.data;
}

/** A seller whose shop sends `EVENTS` to the receiver, then is deleted. */
async function sellerWhoseShopWasDeleted(url = hook.url) {
  const seller = await signUpSeller(service.url);
  const oldSecret = seller.res.body.data.signUp.webhookSecret as string;
  await ok('SetWebhookUrl', { url, currentPassword: seller.password }, seller.session);
  await ok('SetWebhookEvents', { events: EVENTS }, seller.session);
  await ok('DeleteMyShop', { shopName: 'Dashboard Shop', currentPassword: seller.password }, seller.session);
  return { ...seller, oldSecret };
}

const offered = async (session: DashboardSession) => (await ok('PreviousShopWebhook', {}, session)).currentSeller.previousShopWebhook;

test('kept: the new shop sends the same events to the same URL, signed with its new secret; key and secret are new; the mail names only the host', async () => {
  const seller = await sellerWhoseShopWasDeleted();
  expect(await offered(seller.session)).toEqual({ shopName: 'Dashboard Shop', webhookUrl: hook.url, webhookEvents: EVENTS });

  const created = (await ok('CreateMyShop', { shopName: 'Second Shop', keepWebhook: true, currentPassword: seller.password }, seller.session)).createMyShop;
  expect(created.shop).toMatchObject({ name: 'Second Shop', webhookUrl: hook.url, webhookEvents: EVENTS });
  expect(created.apiKey).not.toBe(seller.apiKey);
  expect(created.webhookSecret).toMatch(/^whsec_/);
  expect(created.webhookSecret).not.toBe(seller.oldSecret);
  // Nothing more to keep while the new shop lives.
  expect(await offered(seller.session)).toBeNull();

  // The new shop's payment reaches the kept URL, signed with the new secret and not the old one.
  const paymentId = (await sellerClient(service.url, created.apiKey).create(VALID_PAYMENT)).body.data.id as string;
  expect((await checkoutClient(service.url).pay(paymentId, '4242424242424242')).body.data.submitCard.status).toBe('COMPLETED');
  await eventually(async () => hook.received.some((r) => r.body.payment?.id === paymentId), 20_000, 'the payment is delivered to the kept URL');
  const delivery = hook.received.find((r) => r.body.payment?.id === paymentId)!;
  expect(delivery.body.shop).toMatchObject({ id: created.shop.id, shop_name: 'Second Shop' });
  expect(delivery.headers['x-service-signature']).toBe(signature(created.webhookSecret, delivery.rawBody));
  expect(delivery.headers['x-service-signature']).not.toBe(signature(seller.oldSecret, delivery.rawBody));

  const issued = await mail.mailTo(seller.email, /A new API key was issued/);
  const host = new URL(hook.url).host;
  expect(issued.text).toContain(`It keeps the webhook URL (at ${host}) and the webhook events of your previous shop; events are signed with the new webhook secret.`);
  expect(issued.text).not.toContain(hook.url);
  expect(issued.text).not.toContain(created.webhookSecret);
});

test('not asked (keepWebhook false or absent): the new shop starts with no URL and no events, as before', async () => {
  for (const keepWebhook of [false, undefined]) {
    const seller = await sellerWhoseShopWasDeleted();
    const created = (await ok('CreateMyShop', { shopName: 'Fresh Shop', keepWebhook, currentPassword: seller.password }, seller.session)).createMyShop;
    expect([keepWebhook, created.shop.webhookUrl, created.shop.webhookEvents]).toEqual([keepWebhook, null, []]);
  }
});

test('a stolen session alone keeps nothing and mints no key: REAUTHENTICATION_REQUIRED, then PASSWORD_INCORRECT', async () => {
  const seller = await sellerWhoseShopWasDeleted();
  expect(code(await dashboard(service.url, 'CreateMyShop', { shopName: 'Thief Shop', keepWebhook: true }, seller.session))).toBe('REAUTHENTICATION_REQUIRED');
  expect(code(await dashboard(service.url, 'CreateMyShop', { shopName: 'Thief Shop', keepWebhook: true, currentPassword: 'a-guess-of-the-thief-1' }, seller.session))).toBe('PASSWORD_INCORRECT');
  expect(await sql('select "id" from "shops" where "seller_id" = ? and "deleted_at" is null', [seller.sellerId])).toEqual([]);
});

test("only the seller's own last shop: another seller's URL is never offered nor kept, and neither is an older shop's", async () => {
  const owner = await sellerWhoseShopWasDeleted();
  const stranger = await signUpSeller(service.url);
  await ok('DeleteMyShop', { shopName: 'Dashboard Shop', currentPassword: stranger.password }, stranger.session);
  expect(await offered(stranger.session)).toBeNull();
  const theirs = (await ok('CreateMyShop', { shopName: 'Stranger Shop', keepWebhook: true, currentPassword: stranger.password }, stranger.session)).createMyShop;
  expect(theirs.shop).toMatchObject({ webhookUrl: null, webhookEvents: [] });
  // The owner's offer is untouched by the stranger, and names the owner's own shop.
  expect(await offered(owner.session)).toMatchObject({ webhookUrl: hook.url });

  // The owner's second shop, deleted with no URL: the first shop's URL, older, is not offered.
  await ok('CreateMyShop', { shopName: 'Second Shop', currentPassword: owner.password }, owner.session);
  await ok('DeleteMyShop', { shopName: 'Second Shop', currentPassword: owner.password }, owner.session);
  expect(await offered(owner.session)).toBeNull();
  const third = (await ok('CreateMyShop', { shopName: 'Third Shop', keepWebhook: true, currentPassword: owner.password }, owner.session)).createMyShop;
  expect(third.shop).toMatchObject({ webhookUrl: null, webhookEvents: [] });
});

test('the kept URL is checked again as if it were saved: one the rule refuses creates no shop', async () => {
  const seller = await sellerWhoseShopWasDeleted();
  await sql('update "shops" set "webhook_url" = ? where "seller_id" = ?', ['ftp://files.example.com/hooks', seller.sellerId]);
  const refused = await dashboard(service.url, 'CreateMyShop', { shopName: 'Second Shop', keepWebhook: true, currentPassword: seller.password }, seller.session);
  expect(code(refused)).toBe('WEBHOOK_URL_INVALID');
  expect(await sql('select "id" from "shops" where "seller_id" = ? and "deleted_at" is null', [seller.sellerId])).toEqual([]);
  // Without it, the shop is created.
  expect((await ok('CreateMyShop', { shopName: 'Second Shop', currentPassword: seller.password }, seller.session)).createMyShop.shop.webhookUrl).toBeNull();
});

test("a shop an owner admin deleted offers nothing (and the seller cannot replace it anyway)", async () => {
  const seller = await signUpSeller(service.url);
  await ok('SetWebhookUrl', { url: hook.url, currentPassword: seller.password }, seller.session);
  const owner = await adminClient(service, AdminRole.OWNER);
  await owner.ok('mutation ($id: ID!) { deleteShop(id: $id, reason: "Fraud reports") { id } }', { id: seller.shopId });
  const signedIn = await signInFrom(service.url, seller.email, seller.password);
  const session = sessionOf(signedIn.browser!);
  expect(await offered(session)).toBeNull();
  expect(code(await dashboard(service.url, 'CreateMyShop', { shopName: 'Back Again', keepWebhook: true, currentPassword: seller.password }, session))).toBe('SHOP_CLOSED_BY_ADMIN');
});

describe('an account taken back from a reset link keeps nothing of the squatter', () => {
  const VICTIM_PASSWORD = 'the-real-owner-chooses-this-1';

  async function reclaimed() {
    const victim = newEmail();
    const squatter = await signUpInBrowser(service.url, victim, 'squatter-password-0001');
    const as = sessionOf(squatter.browser);
    await ok('SetWebhookUrl', { url: `${hook.url}/squatter`, currentPassword: squatter.password }, as);
    await ok('SetWebhookEvents', { events: EVENTS }, as);
    await dashboard(service.url, 'RequestPasswordReset', { email: victim });
    const token = await mail.linkTokenTo(victim, /Reset your password/);
    expect(code(await dashboard(service.url, 'ResetPassword', { token, password: VICTIM_PASSWORD }))).toBeNull();
    await mail.mailTo(victim, /Your account is yours again/);
    const signedIn = await signInFrom(service.url, victim, VICTIM_PASSWORD);
    return { sellerId: squatter.sellerId, squatterShop: squatter.shopId, session: sessionOf(signedIn.browser!) };
  }

  test('nothing is offered, and keepWebhook keeps nothing: no URL, no events', async () => {
    const account = await reclaimed();
    expect(await offered(account.session)).toBeNull();
    const created = (await ok('CreateMyShop', { shopName: 'The Real Shop', keepWebhook: true, currentPassword: VICTIM_PASSWORD }, account.session)).createMyShop;
    expect(created.shop).toMatchObject({ webhookUrl: null, webhookEvents: [] });
  });

  test("not even when the squatter's URL is back on the deleted shop (a write racing the takeover): a shop from before it is never kept", async () => {
    const account = await reclaimed();
    await sql('update "shops" set "webhook_url" = ? where "id" = ?', [`${hook.url}/squatter`, account.squatterShop]);
    expect(await offered(account.session)).toBeNull();
    const created = (await ok('CreateMyShop', { shopName: 'The Real Shop', keepWebhook: true, currentPassword: VICTIM_PASSWORD }, account.session)).createMyShop;
    expect(created.shop).toMatchObject({ webhookUrl: null, webhookEvents: [] });

    // The owner's own shop, made after the takeover, is kept when it is replaced in turn.
    await ok('SetWebhookUrl', { url: `${hook.url}/owner`, currentPassword: VICTIM_PASSWORD }, account.session);
    await ok('DeleteMyShop', { shopName: 'The Real Shop', currentPassword: VICTIM_PASSWORD }, account.session);
    expect(await offered(account.session)).toEqual({ shopName: 'The Real Shop', webhookUrl: `${hook.url}/owner`, webhookEvents: [] });
    const next = (await ok('CreateMyShop', { shopName: 'The Real Shop Two', keepWebhook: true, currentPassword: VICTIM_PASSWORD }, account.session)).createMyShop;
    expect(next.shop).toMatchObject({ webhookUrl: `${hook.url}/owner`, webhookEvents: [] });
  });
});
