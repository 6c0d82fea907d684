import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox } from './secret-box';
import { isNewAccountAddress, normalEmail } from '../../shared/email';
import { domainError } from '../../shared/errors';
import { ApiKey } from './api-key.entity';
import { newApiKey, newWebhookSecret } from './api-keys';
import { Seller } from './seller.entity';
import { Shop } from './shop.entity';

export interface NewShop {
  seller: Seller;
  shop: Shop;
  /** Shown once, in this answer only; only its hash is stored. */
  apiKey: string;
  /** Shown once, in this answer only; stored sealed with ACCOUNT_SECRETS_KEY (deliveries must read it to sign). */
  webhookSecret: string;
}

export interface NewShopRequest {
  email: string;
  shopName: string;
  webhookUrl?: string | null;
  /** Checked already (validWebhookEvents); none when absent. */
  webhookEvents?: readonly string[];
}

/**
 * A seller account with its one shop and the shop's production API key, in one transaction. The address is
 * stored in its normal form whoever creates the seller (sign-up, an admin, the CLI): sellers_email_unique
 * then refuses two accounts differing only by case, spaces or full-width letters; invisible characters and mixed
 * scripts are refused (src/shared/email.ts).
 */
export async function createSellerWithShop(em: EntityManager, request: NewShopRequest, secrets: SecretBox): Promise<NewShop> {
  const email = normalEmail(request.email);
  if (!isNewAccountAddress(email)) throw domainError('EMAIL_INVALID');
  return em.transactional(async (tx) => {
    const seller = tx.create(Seller, { email });
    return addShop(tx, seller, request, secrets);
  });
}

/**
 * A new shop for an existing seller, for example after its shop was deleted (the spec's way to replace a
 * lost key). The `shops_one_live_shop_per_seller` index refuses a second live shop.
 */
export async function createShopForSeller(em: EntityManager, seller: Seller, request: Omit<NewShopRequest, 'email'>, secrets: SecretBox): Promise<NewShop> {
  return em.transactional(async (tx) => addShop(tx, tx.getReference(Seller, seller.id), request, secrets).then((created) => ({ ...created, seller })));
}

async function addShop(tx: EntityManager, seller: Seller, request: Omit<NewShopRequest, 'email'>, secrets: SecretBox): Promise<NewShop> {
  const webhookSecret = newWebhookSecret();
  const shop = tx.create(Shop, {
    seller,
    name: request.shopName,
    webhookUrl: request.webhookUrl ?? null,
    webhookEvents: [...(request.webhookEvents ?? [])],
    webhookSecret: secrets.seal(webhookSecret),
  });
  const key = newApiKey();
  tx.create(ApiKey, { shop, keyHash: key.hash, displayPrefix: key.displayPrefix });
  return { seller, shop, apiKey: key.plaintext, webhookSecret };
}
