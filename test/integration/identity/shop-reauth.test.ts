import { totpCode } from '../../../src/modules/identity/totp';
import { dashboard, signUpSeller } from '../../support/dashboard-client';
import { useMailServer } from '../../support/mail-server';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

/**
 * Deleting a shop and creating one (which issues an API key) need re-authentication from a dashboard session, as the
 * payout account and webhook settings do (docs/dashboard.md, "Re-authentication"), and the seller is mailed for each.
 * The attacker holds a stolen session (cookie and CSRF token), not the password or the phone: with the session
 * alone they could delete the shop and create another, taking a fresh key to redirect webhooks and money.
 */
const mail = useMailServer();
const service = useTestService(() => ({ SMTP_URL: mail.url }));
const code = (res: { body: { errors?: { extensions?: { code?: string } }[] } }) => res.body.errors?.[0]?.extensions?.code ?? null;
const shopsOf = async (sellerId: string) =>
  service.em().getConnection().execute<{ id: string; deleted_at: Date | null }[]>(`select "id", "deleted_at" from "shops" where "seller_id" = ? order by "created_at"`, [sellerId]);

test('a stolen session alone cannot delete the shop nor create one: REAUTHENTICATION_REQUIRED, no key issued', async () => {
  const seller = await signUpSeller(service.url);
  const deleted = await dashboard(service.url, 'DeleteMyShop', { shopName: 'Dashboard Shop' }, seller.session);
  expect(code(deleted)).toBe('REAUTHENTICATION_REQUIRED');
  expect((await shopsOf(seller.sellerId)).map((s) => s.deleted_at)).toEqual([null]);
  expect((await sellerClient(service.url, seller.apiKey).create(VALID_PAYMENT)).status).toBe(200);
  // The seller deletes it (with the password); the thief's session then tries to mint the new key.
  expect(code(await dashboard(service.url, 'DeleteMyShop', { shopName: 'Dashboard Shop', currentPassword: seller.password }, seller.session))).toBeNull();
  const created = await dashboard(service.url, 'CreateMyShop', { shopName: 'Thief Shop' }, seller.session);
  expect(code(created)).toBe('REAUTHENTICATION_REQUIRED');
  expect(created.body.data).toBeNull();
  expect(await shopsOf(seller.sellerId)).toHaveLength(1);
  expect(code(await dashboard(service.url, 'CreateMyShop', { shopName: 'Thief Shop', currentPassword: 'a-guess-of-the-thief-1' }, seller.session))).toBe('PASSWORD_INCORRECT');
  expect(await shopsOf(seller.sellerId)).toHaveLength(1);
});

test('with two-factor on, the password is not enough: a current code is asked for', async () => {
  const seller = await signUpSeller(service.url);
  const begun = await dashboard(service.url, 'BeginTwoFactor', { password: seller.password }, seller.session);
  const secret = begun.body.data.beginTwoFactor.secret as string;
  expect(code(await dashboard(service.url, 'ConfirmTwoFactor', { code: totpCode(secret) }, seller.session))).toBeNull();
  const withPassword = await dashboard(service.url, 'DeleteMyShop', { shopName: 'Dashboard Shop', currentPassword: seller.password }, seller.session);
  expect(code(withPassword)).toBe('REAUTHENTICATION_REQUIRED');
  expect(code(await dashboard(service.url, 'DeleteMyShop', { shopName: 'Dashboard Shop', code: totpCode(secret, Date.now() + 30_000) }, seller.session))).toBeNull();
});

test('the seller is mailed when the shop is deleted and when a new key is issued', async () => {
  const seller = await signUpSeller(service.url);
  expect(code(await dashboard(service.url, 'DeleteMyShop', { shopName: 'Dashboard Shop', currentPassword: seller.password }, seller.session))).toBeNull();
  const gone = await mail.mailTo(seller.email, /Your shop was deleted/);
  expect(gone.text).toContain('Your shop “Dashboard Shop” was just deleted from the dashboard: its API key no longer works.');
  expect(gone.text).toContain('If this was not you, reset your password now and tell us.');
  const created = await dashboard(service.url, 'CreateMyShop', { shopName: 'Second Shop', currentPassword: seller.password }, seller.session);
  expect(code(created)).toBeNull();
  const issued = await mail.mailTo(seller.email, /A new API key was issued/);
  expect(issued.text).toContain('A new shop “Second Shop” was created from the dashboard, with a new API key and webhook secret.');
  // The mail names no key or secret.
  expect(issued.text).not.toContain(created.body.data.createMyShop.apiKey);
  expect(issued.text).not.toContain(created.body.data.createMyShop.webhookSecret);
});
