import type { EntityManager } from '@mikro-orm/postgresql';
import { domainError } from '../../shared/errors';
import { digestsEqual } from '../../shared/secrets';
import { ApiKey } from './api-key.entity';
import { API_KEY_PATTERN } from './api-keys';
import type { CachedCredential, CredentialCache } from './credential-cache';
import { SellerStatus } from './seller.entity';
import { ShopStatus } from './shop.entity';

/** The API key in `Authorization: Bearer <key>`, or the spec's 401 when it is absent or malformed. */
export function apiKeyFromHeader(authorization: string | undefined): string {
  if (authorization === undefined || authorization.trim() === '') throw domainError('API_KEY_REQUIRED');
  const match = /^Bearer +(\S+)\s*$/i.exec(authorization);
  if (!match || !API_KEY_PATTERN.test(match[1])) throw domainError('INVALID_API_KEY');
  return match[1];
}

/**
 * The shop (and seller account status) a key (given as its SHA-256 hash) belongs to, with the spec's answers for keys that
 * must not work: unknown, revoked or of a deleted shop (401 Invalid API key), inactive shop (401),
 * inactive or suspended seller (403). Known keys are answered from the cache; `em` is asked for only on
 * a miss, so a cached request opens no unit of work.
 */
export async function credentialForKeyHash(keyHash: string, cache: CredentialCache, em: () => EntityManager): Promise<CachedCredential> {
  const credential = cache.get(keyHash) ?? (await loadCredential(em(), keyHash, cache));
  if (credential.refusal) throw domainError(credential.refusal);
  return credential;
}

async function loadCredential(em: EntityManager, keyHash: string, cache: CredentialCache): Promise<CachedCredential> {
  const key = await em.findOne(ApiKey, { keyHash }, { populate: ['shop', 'shop.seller'] });
  // Unknown keys are not cached: guessing must not fill the cache (failed attempts are rate-limited instead).
  if (!key || !digestsEqual(key.keyHash, keyHash)) throw domainError('INVALID_API_KEY');
  const { seller } = key.shop;
  const credential: CachedCredential = { shopId: key.shop.id, sellerId: seller.id, accountStatus: seller.accountStatus, refusal: refusalFor(key) };
  cache.set(keyHash, credential);
  return credential;
}

function refusalFor(key: ApiKey): CachedCredential['refusal'] {
  if (key.revokedAt || key.shop.deletedAt) return 'INVALID_API_KEY';
  if (key.shop.seller.status !== SellerStatus.ACTIVE) return 'SELLER_INACTIVE';
  if (key.shop.status !== ShopStatus.ACTIVE) return 'SHOP_INACTIVE';
  return null;
}
