import type { EntityManager } from '@mikro-orm/postgresql';
import { domainError } from '../shared/errors';
import { digestsEqual, randomHex, sha256Hex } from '../shared/secrets';
import { recordAudit } from '../audit/audit.service';
import { Admin } from './admin.entity';

export const ADMIN_TOKEN_PATTERN = /^adm_[0-9a-f]{64}$/;

/** A new admin and their bearer token, shown once; only the token's hash is stored. */
export async function createAdmin(em: EntityManager, email: string): Promise<{ admin: Admin; token: string }> {
  const token = `adm_${randomHex(32)}`;
  const admin = em.create(Admin, { email, tokenHash: sha256Hex(token) });
  recordAudit(em, null, { action: 'admin.created', targetType: 'admin', targetId: admin.id, details: { email } });
  await em.flush();
  return { admin, token };
}

/**
 * Revokes an admin's token (operations CLI): the next request with it is refused, since tokens are
 * checked against the database on every request. Null when no admin has that address.
 */
export async function revokeAdmin(em: EntityManager, email: string): Promise<Admin | null> {
  const admin = await em.findOne(Admin, { email });
  if (!admin) return null;
  if (!admin.revokedAt) {
    admin.revokedAt = new Date();
    recordAudit(em, null, { action: 'admin.revoked', targetType: 'admin', targetId: admin.id, details: { email } });
    await em.flush();
  }
  return admin;
}

export async function adminForToken(em: EntityManager, token: string): Promise<Admin> {
  const hash = sha256Hex(token);
  const admin = ADMIN_TOKEN_PATTERN.test(token) ? await em.findOne(Admin, { tokenHash: hash }) : null;
  if (!admin || !digestsEqual(admin.tokenHash, hash) || admin.revokedAt) throw domainError('UNAUTHENTICATED');
  return admin;
}
