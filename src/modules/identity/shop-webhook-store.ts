import type { EntityManager } from '@mikro-orm/postgresql';
import { Shop } from './shop.entity';

// The writes of a shop's webhook columns. The webhooks module holds the rules (the URL check, the notices, the audit)
// and calls these in its own unit of work or transaction.

/** Sets the loaded shop's webhook URL (null: none); the caller's flush or commit writes it. */
export function setShopWebhookUrl(shop: Shop, url: string | null): void {
  shop.webhookUrl = url;
}

/** Sets the loaded shop's events chosen besides payment.completed; the caller's flush writes it. */
export function setShopWebhookEvents(shop: Shop, events: string[]): void {
  shop.webhookEvents = events;
}

/** Replaces the shop's webhook secret with a sealed one, one UPDATE in the caller's transaction. */
export async function setShopWebhookSecret(tx: EntityManager, shopId: string, sealedSecret: string): Promise<void> {
  await tx.nativeUpdate(Shop, { id: shopId }, { webhookSecret: sealedSecret });
}
