import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox } from './secret-box';
import { Seller } from './seller.entity';
import { createSellerWithShop, type NewShop } from './shop-provisioning';

/** On the embedded database's first start: one demo seller and shop, so a curl works right away. */
export async function createDemoShopIfEmpty(em: EntityManager, secrets: SecretBox): Promise<NewShop | null> {
  if ((await em.count(Seller, {})) > 0) return null;
  return createSellerWithShop(em, { email: 'demo@example.com', shopName: 'Demo Shop' }, secrets);
}
