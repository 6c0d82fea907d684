import type { EntityManager } from '@mikro-orm/postgresql';
import { domainError } from '../shared/errors';
import { digestsEqual, sha256Hex } from '../shared/secrets';
import { ApiKey } from './api-key.entity';
import { API_KEY_PATTERN } from './credentials';
import { SellerStatus } from './seller.entity';
import { ShopStatus, type Shop } from './shop.entity';

/** The API key in `Authorization: Bearer <key>`, or the spec's 401 when it is absent or malformed. */
export function apiKeyFromHeader(authorization: string | undefined): string {
  if (authorization === undefined || authorization.trim() === '') throw domainError('API_KEY_REQUIRED');
  const match = /^Bearer +(\S+)\s*$/i.exec(authorization);
  if (!match || !API_KEY_PATTERN.test(match[1])) throw domainError('INVALID_API_KEY');
  return match[1];
}

/**
 * The shop a key belongs to, with the spec's answers for keys that must not work: unknown, revoked
 * or of a deleted shop (401 Invalid API key), inactive shop (401), inactive or suspended seller (403).
 */
export async function shopForApiKey(em: EntityManager, apiKey: string): Promise<Shop> {
  const hash = sha256Hex(apiKey);
  const key = await em.findOne(ApiKey, { keyHash: hash }, { populate: ['shop', 'shop.seller'] });
  if (!key || !digestsEqual(key.keyHash, hash) || key.revokedAt || key.shop.deletedAt) {
    throw domainError('INVALID_API_KEY');
  }
  if (key.shop.seller.status !== SellerStatus.ACTIVE) throw domainError('SELLER_INACTIVE');
  if (key.shop.status !== ShopStatus.ACTIVE) throw domainError('SHOP_INACTIVE');
  return key.shop;
}
