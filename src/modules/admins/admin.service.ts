import type { EntityManager } from '@mikro-orm/postgresql';
import { isNewAccountAddress, normalEmail } from '../../shared/email';
import { domainError } from '../../shared/errors';
import { digestsEqual, randomHex, sha256Hex } from '../../shared/secrets';
import { recordAudit } from '../audit';
import { Admin, CLI_ISSUER } from './admin.entity';
import type { AdminRole } from './admin-role';
import { AdminToken, tokenIsLive } from './admin-token.entity';

export const ADMIN_TOKEN_PATTERN = /^adm_[0-9a-f]{64}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface NewAdmin {
  email: string;
  role: AdminRole;
  /** ADMIN_TOKEN_TTL_DAYS: how long the first token is accepted. */
  tokenTtlDays: number;
}

/**
 * A new admin and their first bearer token, shown once; only the token's hash is stored. The address is kept
 * normalised (NFKC, trimmed, lower case) and of one script, as a seller's, so sign-in and the CLI find the admin
 * however it is typed and no second admin looks like the first.
 */
export async function createAdmin(em: EntityManager, input: NewAdmin): Promise<{ admin: Admin; token: string }> {
  const email = normalEmail(input.email);
  if (!isNewAccountAddress(email)) throw domainError('EMAIL_INVALID');
  if (await adminByEmail(em, email)) throw domainError('EMAIL_TAKEN');
  const admin = em.create(Admin, { email, role: input.role });
  const { token } = newToken(em, admin, null, input.tokenTtlDays);
  recordAudit(em, null, { action: 'admin.created', targetType: 'admin', targetId: admin.id, details: { email, role: input.role } });
  await em.flush();
  return { admin, token };
}

/**
 * Another token for `admin` (rotation before the current one expires), issued by that admin themselves: no
 * admin issues a token for another (docs/admin.md, "Admin tokens"). The token is answered once.
 */
export async function issueAdminToken(em: EntityManager, admin: Admin, ttlDays: number): Promise<{ record: AdminToken; token: string }> {
  const issued = newToken(em, admin, admin, ttlDays);
  recordAudit(em, admin, {
    action: 'admin_token.issued',
    targetType: 'admin',
    targetId: admin.id,
    details: { tokenId: issued.record.id, expiresAt: issued.record.expiresAt.toISOString() },
  });
  await em.flush();
  return issued;
}

/** `issuedBy` null: the operations CLI. */
function newToken(em: EntityManager, admin: Admin, issuedBy: Admin | null, ttlDays: number): { record: AdminToken; token: string } {
  const token = `adm_${randomHex(32)}`;
  const now = new Date();
  const record = em.create(AdminToken, { admin, issuedBy, tokenHash: sha256Hex(token), createdAt: now, expiresAt: new Date(now.getTime() + ttlDays * DAY_MS) });
  return { record, token };
}

/** An admin's tokens, newest first (revoked and expired ones too: they are the record of access). */
export function listAdminTokens(em: EntityManager, adminId: string): Promise<AdminToken[]> {
  return em.find(AdminToken, { admin: adminId }, { orderBy: { createdAt: 'desc', id: 'desc' } });
}

/** Revokes one token: refused from the next request on. Revoking a revoked token changes nothing. */
export async function revokeAdminToken(em: EntityManager, by: Admin, token: AdminToken): Promise<AdminToken> {
  if (token.revokedAt) return token;
  const revoked = await em.transactional(async (tx) => {
    const now = new Date();
    const updated = await tx.nativeUpdate(AdminToken, { id: token.id, revokedAt: null }, { revokedAt: now, revokedBy: by.id });
    if (updated === 1) recordAudit(tx, by, { action: 'admin_token.revoked', targetType: 'admin', targetId: token.admin.id, details: { tokenId: token.id } });
    return updated === 1;
  });
  if (revoked) await em.refresh(token);
  return token;
}

export function findAdminToken(em: EntityManager, id: string): Promise<AdminToken> {
  return em.findOneOrFail(AdminToken, { id }, { failHandler: () => domainError('ADMIN_TOKEN_NOT_FOUND') });
}

/** Every admin, oldest first. */
export function listAdmins(em: EntityManager): Promise<Admin[]> {
  return em.find(Admin, {}, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

/** The admin with this address however it is typed (spaces around it, any case), or null. */
export function adminByEmail(em: EntityManager, email: string): Promise<Admin | null> {
  return em.findOne(Admin, { email: normalEmail(email) });
}

/**
 * Revokes an admin (operations CLI): every token of theirs is refused from the next request on, since
 * tokens are checked against the database on every request. Null when no admin has that address.
 */
export async function revokeAdmin(em: EntityManager, email: string): Promise<Admin | null> {
  const admin = await adminByEmail(em, email);
  if (!admin) return null;
  if (!admin.revokedAt) {
    admin.revokedAt = new Date();
    recordAudit(em, null, { action: 'admin.revoked', targetType: 'admin', targetId: admin.id, details: { email: admin.email } });
    await em.flush();
  }
  return admin;
}

/**
 * The admin a bearer token belongs to, and the token's id; the admin acts with that token (`actingWith`, for
 * the audit log). Unknown, malformed, expired and revoked tokens, tokens of a revoked admin, and a token
 * issued by anyone but its own admin or the CLI, are all the same 401: a caller learns nothing from the answer.
 */
export async function adminForToken(em: EntityManager, token: string, now = new Date()): Promise<{ admin: Admin; tokenId: string }> {
  const hash = sha256Hex(token);
  const record = ADMIN_TOKEN_PATTERN.test(token) ? await em.findOne(AdminToken, { tokenHash: hash }, { populate: ['admin'] }) : null;
  if (!record || !digestsEqual(record.tokenHash, hash) || !tokenIsLive(record, now) || record.admin.revokedAt) throw domainError('UNAUTHENTICATED');
  const issuedBy = tokenIssuer(record);
  if (issuedBy !== CLI_ISSUER && issuedBy !== record.admin.id) throw domainError('UNAUTHENTICATED');
  record.admin.actingWith = { kind: 'token', id: record.id, issuedBy };
  return { admin: record.admin, tokenId: record.id };
}

/** Who issued a token: the admin's id, or `cli`. */
export function tokenIssuer(token: AdminToken): string {
  return token.issuedBy?.id ?? CLI_ISSUER;
}
