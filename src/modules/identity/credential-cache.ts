import type { Logger } from 'pino';
import type { Redis } from '../../shared/redis';
import type { AccountStatus } from './account-status';

/** What authentication needs to know about a key, without touching the database. */
export interface CachedCredential {
  shopId: string;
  sellerId: string;
  /** The seller's account status, which caps each payment's amount at create (invalidated like the rest). */
  accountStatus: AccountStatus;
  /** Null when the key works; otherwise the catalogue code to answer with. */
  refusal: 'INVALID_API_KEY' | 'SHOP_INACTIVE' | 'SELLER_INACTIVE' | null;
}

/**
 * API-key lookups cached in each process, so the hot path does no database work to authenticate.
 * Any change to a shop, its seller or its keys must call `invalidateShop`: the entry is dropped here
 * at once and, through Redis pub/sub, in every other instance. Entries also expire after `ttlMs`,
 * which bounds staleness if an invalidation message is ever lost (the cache is cleared whenever the
 * subscription reconnects, since messages may have been missed while it was down).
 */
export interface CredentialCache {
  get(keyHash: string): CachedCredential | undefined;
  set(keyHash: string, credential: CachedCredential): void;
  invalidateShop(shopId: string): Promise<void>;
  close(): void;
}

export function createCredentialCache(options: { ttlMs: number; maxEntries: number; redis?: Redis; subscriber?: Redis; channel: string; logger: Logger }): CredentialCache {
  const entries = new Map<string, { credential: CachedCredential; expiresAt: number }>();
  const dropShop = (shopId: string) => {
    for (const [hash, entry] of entries) if (entry.credential.shopId === shopId) entries.delete(hash);
  };
  const { subscriber, redis, channel } = options;
  if (subscriber) {
    subscriber.on('message', (from: string, shopId: string) => from === channel && dropShop(shopId));
    subscriber.on('ready', () => entries.clear());
    subscriber.subscribe(channel).catch((err: Error) => options.logger.warn({ err: err.message }, 'credential cache: subscribe failed'));
  }
  return {
    get(keyHash) {
      const entry = entries.get(keyHash);
      if (!entry) return undefined;
      if (entry.expiresAt > Date.now()) return entry.credential;
      entries.delete(keyHash);
      return undefined;
    },
    set(keyHash, credential) {
      if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(keyHash, { credential, expiresAt: Date.now() + options.ttlMs });
    },
    async invalidateShop(shopId) {
      dropShop(shopId);
      if (redis) await redis.publish(channel, shopId);
    },
    close() {
      subscriber?.disconnect();
    },
  };
}
