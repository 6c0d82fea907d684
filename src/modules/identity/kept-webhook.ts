import type { EntityManager } from '@mikro-orm/postgresql';
import { Seller } from './seller.entity';
import { Shop } from './shop.entity';

/** The webhook settings a seller's new shop may keep from the shop it replaces. */
export interface KeptWebhook {
  /** The previous shop's name, to say whose settings these are. */
  shopName: string;
  webhookUrl: string | null;
  /** The events chosen besides payment.completed. */
  webhookEvents: string[];
}

/**
 * What a seller's new shop may keep of the one it replaces (createMyShop with keepWebhook): the webhook URL and the
 * events of the seller's own most recently deleted shop, so replacing a lost key does not stop the events. Never its
 * secret: the new shop gets its own. Nothing while a shop lives (no new shop can be made), when an owner admin deleted
 * the previous shop, or when that shop was created before the account was last taken over from its reset link
 * (reclaimAccount cleared the squatter's URL on purpose: it must not come back); nothing when it had no URL and no events.
 * Only ever the session's own seller's shops: no shop id comes from the caller.
 */
export async function keptWebhookOf(em: EntityManager, sellerId: string): Promise<KeptWebhook | null> {
  if (await em.count(Shop, { seller: sellerId, deletedAt: null })) return null;
  const seller = await em.findOne(Seller, { id: sellerId });
  const previous = await em.findOne(Shop, { seller: sellerId, deletedAt: { $ne: null } }, { orderBy: { deletedAt: 'desc', id: 'desc' } });
  if (!seller || !previous || previous.deletedByAdmin) return null;
  if (seller.reclaimedAt && previous.createdAt.getTime() <= seller.reclaimedAt.getTime()) return null;
  if (!previous.webhookUrl && previous.webhookEvents.length === 0) return null;
  return { shopName: previous.name, webhookUrl: previous.webhookUrl, webhookEvents: [...previous.webhookEvents] };
}
