import { createHmac, randomBytes } from 'node:crypto';
import { keyId } from '../../../src/modules/identity/secret-box';
import type { TestService } from '../../support/test-service';
import { graphqlAs, shopActor, useWebhookService } from '../../support/webhook-support';

/**
 * Webhook secrets are read back to sign every delivery, so they are sealed with ACCOUNT_SECRETS_KEY like the
 * other secrets we must read (src/modules/identity/secret-box.ts): a copy of the database alone cannot forge a
 * seller's webhooks. The seller still gets the plain secret once, and every delivery verifies with it.
 */
const KEY = randomBytes(32).toString('hex');
const suite = useWebhookService({ ACCOUNT_SECRETS_KEY: KEY });
let shop: Awaited<ReturnType<TestService['createShop']>>;

const storedSecret = async (shopId: string) =>
  ((await suite.service.em().execute(`select "webhook_secret" from "shops" where "id" = ?`, [shopId])) as { webhook_secret: string }[])[0].webhook_secret;
const signature = (secret: string, body: Buffer) => createHmac('sha256', secret).update(body).digest('hex');

beforeAll(async () => {
  shop = await suite.service.createShop({ webhookUrl: suite.receiver.url });
});

test('a new shop\'s secret is stored sealed with the current key, never as it was shown; deliveries are signed with the one shown', async () => {
  expect(shop.webhookSecret).toMatch(/^whsec_/);
  const stored = await storedSecret(shop.shop.id);
  expect(stored).toMatch(new RegExp(`^aes2:${keyId(KEY)}:`));
  expect(stored).not.toContain(shop.webhookSecret.slice('whsec_'.length, 20));

  await shopActor(suite.service, shop.apiKey).completePayment();
  const [hook] = await suite.receiver.waitFor(1);
  expect(hook.headers['x-service-signature']).toBe(signature(shop.webhookSecret, hook.rawBody));
});

test('a rotated secret is stored sealed too, and signs the next delivery', async () => {
  const rotated = (await graphqlAs(suite.service, shop.apiKey)('mutation { rotateWebhookSecret { webhookSecret } }')).data?.rotateWebhookSecret.webhookSecret;
  expect(rotated).toMatch(/^whsec_/);
  const stored = await storedSecret(shop.shop.id);
  expect(stored).toMatch(new RegExp(`^aes2:${keyId(KEY)}:`));
  expect(stored).not.toContain(rotated.slice('whsec_'.length, 20));

  await shopActor(suite.service, shop.apiKey).completePayment();
  const [hook] = await suite.receiver.waitFor(1);
  expect(hook.headers['x-service-signature']).toBe(signature(rotated, hook.rawBody));
});

test('a secret stored before any key was set still signs, until reencrypt-secrets seals it', async () => {
  const old = await suite.service.createShop({ webhookUrl: suite.receiver.url });
  const plain = 'whsec_' + randomBytes(32).toString('base64');
  await suite.service.em().execute(`update "shops" set "webhook_secret" = ? where "id" = ?`, [plain, old.shop.id]);
  await shopActor(suite.service, old.apiKey).completePayment();
  const [hook] = await suite.receiver.waitFor(1);
  expect(hook.headers['x-service-signature']).toBe(signature(plain, hook.rawBody));
});
