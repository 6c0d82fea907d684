import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey } from './api-key.entity';
import { newApiKey, newWebhookSecret } from './credentials';
import { Seller } from './seller.entity';
import { Shop } from './shop.entity';

export interface NewShop {
  seller: Seller;
  shop: Shop;
  /** Shown once, in this answer only; only its hash is stored. */
  apiKey: string;
  webhookSecret: string;
}

export interface NewShopRequest {
  email: string;
  shopName: string;
  webhookUrl?: string | null;
}

/** A seller account with its one shop and the shop's production API key, in one transaction. */
export async function createSellerWithShop(em: EntityManager, request: NewShopRequest): Promise<NewShop> {
  return em.transactional(async (tx) => {
    const seller = tx.create(Seller, { email: request.email });
    const webhookSecret = newWebhookSecret();
    const shop = tx.create(Shop, {
      seller,
      name: request.shopName,
      webhookUrl: request.webhookUrl ?? null,
      webhookSecret,
    });
    const key = newApiKey();
    tx.create(ApiKey, { shop, keyHash: key.hash, displayPrefix: key.displayPrefix });
    return { seller, shop, apiKey: key.plaintext, webhookSecret };
  });
}
