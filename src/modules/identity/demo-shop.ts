import type { EntityManager } from '@mikro-orm/postgresql';
import { inviteSeller } from './accounts.service';
import type { SecretBox } from './secret-box';
import { Seller } from './seller.entity';
import { createSellerWithShop, type NewShop } from './shop-provisioning';

/** The demo shop, and the single-use link (72 hours) with which its seller chooses a password for the dashboard. */
export interface DemoShop extends NewShop {
  invitationLink: string;
}

/** On the embedded database's first start: one demo seller and shop, so a curl works right away and the dashboard shows it. */
export async function createDemoShopIfEmpty(em: EntityManager, secrets: SecretBox, baseUrl: string): Promise<DemoShop | null> {
  if ((await em.count(Seller, {})) > 0) return null;
  const created = await createSellerWithShop(em, { email: 'demo@example.com', shopName: 'Demo Shop' }, secrets);
  const { token } = await inviteSeller(em, created.seller.id);
  return { ...created, invitationLink: `${baseUrl}/dashboard/accept-invitation?token=${token}` };
}

/** What the first start prints, once: the key is stored only as a hash and cannot be printed again. */
export function demoShopNotice(demo: DemoShop): string {
  return [
    '',
    'Demo shop created (shown once, store it now):',
    `  shop id:        ${demo.shop.id}`,
    `  API key:        ${demo.apiKey}`,
    `  webhook secret: ${demo.webhookSecret}`,
    `  dashboard:      ${demo.invitationLink}`,
    '                  (choose the password of demo@example.com; the link works once, for 72 hours;',
    '                  a new one: npm run cli -- seller-invitation-link --email demo@example.com)',
    '',
  ].join('\n');
}
