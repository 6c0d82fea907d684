import { createCipheriv, randomBytes } from 'node:crypto';
import { keyId } from '../../src/modules/identity/secret-box';
import { newTotpSecret, totpCode } from '../../src/modules/identity/totp';
import { AdminRole } from '../../src/modules/admins/admin-role';
import { adminClient } from '../support/admin-client';
import { adminOperation, setUpAdmin } from '../support/admin-session';
import { createEmptyDatabase, dropDatabase } from '../support/databases';
import { dashboard, signUpSeller, STRONG_PASSWORD } from '../support/dashboard-client';
import { runNode } from '../support/processes';
import { startTestService, type TestService } from '../support/test-service';

/**
 * Rotating ACCOUNT_SECRETS_KEY end to end with the operations CLI (docs/operations.md, "Rotating secrets"):
 * secrets stored in the clear (before any key), sealed with the old key, and in the first sealed format (no
 * key id) are all sealed again with the new key by `reencrypt-secrets`; a second run changes nothing; a service
 * holding only the new key then reads every one (TOTP sign-ins of sellers and an admin, finance's payout number).
 */
const OLD = '1a'.repeat(32);
const NEW = '2b'.repeat(32);
const SEALED_COLUMNS = [
  ['sellers', 'totp_secret'],
  ['admins', 'totp_secret'],
  ['sellers', 'payout_account_number'],
] as const;

let database: { name: string; url: string };
beforeAll(async () => {
  database = await createEmptyDatabase('payments_reencrypt');
});
afterAll(() => dropDatabase(database.name));

const cli = (env: Record<string, string>) => runNode('cli.js', ['reencrypt-secrets'], { DATABASE_URL: database.url, LOG_LEVEL: 'warn', ...env });
const nextCode = (secret: string) => totpCode(secret, Date.now() + 30_000);

async function sealedValues(service: TestService): Promise<string[]> {
  const values: string[] = [];
  for (const [table, column] of SEALED_COLUMNS) {
    const rows: { value: string }[] = await service.em().execute(`select "${column}" as "value" from "${table}" where "${column}" is not null order by "id"`);
    values.push(...rows.map((r) => r.value));
  }
  return values;
}

/** A seller (signed up on `service`) with two-factor on and a payout account; the TOTP secret. */
async function sellerWithSecrets(service: TestService, accountNumber: string) {
  const seller = await signUpSeller(service.url);
  const begun = await dashboard(service.url, 'BeginTwoFactor', { password: seller.password }, seller.session);
  const secret = begun.body.data.beginTwoFactor.secret as string;
  const confirmed = await dashboard(service.url, 'ConfirmTwoFactor', { code: totpCode(secret) }, seller.session);
  // A recovery code re-authenticates (the next TOTP step is kept for the sign-in after the rotation).
  const set = await dashboard(service.url, 'SetPayoutAccount', { holder: 'Holder', accountNumber, code: confirmed.body.data.confirmTwoFactor[0] }, seller.session);
  expect(set.body.data?.setPayoutAccount?.accountNumberMasked).toBe(`•••• ${accountNumber.slice(-4)}`);
  return { ...seller, secret };
}

/** The first sealed format, `aes1:` and no key id, as values were written before rotation existed. */
function firstFormat(keyHex: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `aes1:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
}

test('reencrypt-secrets seals clear, old-key and first-format secrets with the new key, idempotently; a service with the new key alone reads them all', async () => {
  // 1. No key yet: a seller's TOTP secret and payout number are stored in the clear.
  const clear = await startTestService({ DATABASE_URL: database.url });
  const plainSeller = await sellerWithSecrets(clear, 'GB29NWBK60161331926819');
  await clear.stop();

  // 2. The first key: another seller and an admin sealed with it; a third seller's secret in the first format.
  const first = await startTestService({ DATABASE_URL: database.url, ACCOUNT_SECRETS_KEY: OLD });
  const oldSeller = await sellerWithSecrets(first, 'DE89370400440532013000');
  const admin = await setUpAdmin(first, AdminRole.SUPPORT);
  const legacy = await signUpSeller(first.url);
  const legacySecret = newTotpSecret();
  await first.em().execute(`update "sellers" set "totp_secret" = ?, "totp_enabled_at" = now() where "id" = ?`, [firstFormat(OLD, legacySecret), legacy.sellerId]);
  const before = await sealedValues(first);
  expect(before.filter((v) => !v.startsWith('aes'))).toHaveLength(2);
  expect(before.filter((v) => v.startsWith(`aes2:${keyId(OLD)}:`))).toHaveLength(3);
  expect(before.filter((v) => v.startsWith('aes1:'))).toHaveLength(1);
  await first.stop();

  // 3. Rotation: the new key current, the old one still opening; the CLI seals everything again.
  const run = await cli({ ACCOUNT_SECRETS_KEY: NEW, ACCOUNT_SECRETS_OLD_KEYS: OLD });
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
  expect(run.stdout.trim().split('\n')).toHaveLength(1);
  expect(JSON.parse(run.stdout)).toEqual({
    key_id: keyId(NEW),
    // The kept account mails too (a verification and a two-factor mail per seller with two-factor, one for the third).
    resealed: { 'sellers.totp_secret': 3, 'admins.totp_secret': 1, 'sellers.payout_account_number': 2, 'shops.webhook_secret': 3, 'mail_outbox.sealed_body': 5 },
    current: { 'sellers.totp_secret': 0, 'admins.totp_secret': 0, 'sellers.payout_account_number': 0, 'shops.webhook_secret': 0, 'mail_outbox.sealed_body': 0 },
    failed: [],
  });

  // 4. A second run changes nothing.
  const service = await startTestService({ DATABASE_URL: database.url, ACCOUNT_SECRETS_KEY: NEW });
  try {
    const after = await sealedValues(service);
    expect(after).toHaveLength(6);
    for (const value of after) expect(value).toMatch(new RegExp(`^aes2:${keyId(NEW)}:[A-Za-z0-9_-]+$`));
    const again = await cli({ ACCOUNT_SECRETS_KEY: NEW, ACCOUNT_SECRETS_OLD_KEYS: OLD });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      resealed: { 'sellers.totp_secret': 0, 'admins.totp_secret': 0, 'sellers.payout_account_number': 0, 'shops.webhook_secret': 0, 'mail_outbox.sealed_body': 0 },
      current: { 'sellers.totp_secret': 3, 'admins.totp_secret': 1, 'sellers.payout_account_number': 2, 'shops.webhook_secret': 3, 'mail_outbox.sealed_body': 5 },
    });
    expect(await sealedValues(service)).toEqual(after);
    const dump = JSON.stringify(await service.em().execute('select * from "sellers"'));
    for (const secret of [plainSeller.secret, oldSeller.secret, legacySecret, '60161331926819', '0532013000']) expect(dump).not.toContain(secret);

    // 5. The service holding only the new key reads every secret: TOTP sign-ins, finance's payout number.
    for (const [seller, code] of [[plainSeller, nextCode(plainSeller.secret)], [oldSeller, nextCode(oldSeller.secret)], [legacy, totpCode(legacySecret)]] as const) {
      const res = await dashboard(service.url, 'SignIn', { email: seller.email, password: STRONG_PASSWORD, code });
      expect([seller.email, res.body.errors ?? null]).toEqual([seller.email, null]);
    }
    const signedIn = await adminOperation(service.url, 'AdminSignIn', { email: admin.email, password: admin.password, code: nextCode(admin.secret) });
    expect(signedIn.body.data?.adminSignIn?.admin?.id).toBe(admin.admin.id);
    const finance = await adminClient(service, AdminRole.FINANCE);
    for (const [seller, whole] of [[plainSeller, 'GB29NWBK60161331926819'], [oldSeller, 'DE89370400440532013000']] as const) {
      const read = await finance.ok('query($s: ID!) { shop(id: $s) { seller { payoutAccount { accountNumber accountNumberMasked } } } }', { s: seller.shopId });
      expect(read.shop.seller.payoutAccount).toEqual({ accountNumber: whole, accountNumberMasked: `•••• ${whole.slice(-4)}` });
    }

    // 6. The wrong key as current (the new one forgotten): every value is named as failed, none is touched, exit 1.
    const wrong = await cli({ ACCOUNT_SECRETS_KEY: OLD });
    expect(wrong.code).toBe(1);
    const report = JSON.parse(wrong.stdout);
    expect(report.failed).toHaveLength(9 + 5);
    expect(report.failed[0].problem).toMatch(new RegExp(`sealed with key ${keyId(NEW)}, which is neither ACCOUNT_SECRETS_KEY nor one of ACCOUNT_SECRETS_OLD_KEYS`));
    expect(await sealedValues(service)).toEqual(after);
  } finally {
    await service.stop();
  }
}, 120_000);

test('without a key there is nothing to seal with; old keys without a current key are refused in one line', async () => {
  const none = await cli({});
  expect(none.code).toBe(2);
  expect(none.stderr).toMatch(/ACCOUNT_SECRETS_KEY is not set: there is no key to seal the secrets with/);
  expect(none.stdout).toBe('');
  const orphan = await cli({ ACCOUNT_SECRETS_OLD_KEYS: OLD });
  expect(orphan.code).toBe(1);
  expect(orphan.stderr.trim()).toBe('Invalid configuration: ACCOUNT_SECRETS_OLD_KEYS needs ACCOUNT_SECRETS_KEY, the key secrets are sealed with from now on');
  const malformed = await cli({ ACCOUNT_SECRETS_KEY: NEW, ACCOUNT_SECRETS_OLD_KEYS: `${OLD},abc` });
  expect(malformed.stderr.trim()).toBe('Invalid configuration: ACCOUNT_SECRETS_OLD_KEYS must be comma-separated keys of 64 hexadecimal characters each');
});
