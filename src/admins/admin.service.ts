import type { EntityManager } from '@mikro-orm/postgresql';
import { domainError } from '../shared/errors';
import { digestsEqual, randomHex, sha256Hex } from '../shared/secrets';
import { Admin } from './admin.entity';

export const ADMIN_TOKEN_PATTERN = /^adm_[0-9a-f]{64}$/;

/** A new admin and their bearer token, shown once; only the token's hash is stored. */
export async function createAdmin(em: EntityManager, email: string): Promise<{ admin: Admin; token: string }> {
  const token = `adm_${randomHex(32)}`;
  const admin = em.create(Admin, { email, tokenHash: sha256Hex(token) });
  await em.flush();
  return { admin, token };
}

export async function adminForToken(em: EntityManager, token: string): Promise<Admin> {
  const hash = sha256Hex(token);
  const admin = ADMIN_TOKEN_PATTERN.test(token) ? await em.findOne(Admin, { tokenHash: hash }) : null;
  if (!admin || !digestsEqual(admin.tokenHash, hash) || admin.revokedAt) throw domainError('UNAUTHENTICATED');
  return admin;
}
