import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { domainError } from '../shared/errors';
import { EMAIL_VERIFICATION_TTL_HOURS, SIGN_IN_LOCKOUT_MINUTES, SIGN_IN_MAX_FAILURES } from '../shared/limits';
import { sha256Hex } from '../shared/secrets';
import { validSellerEmail, validShopName } from '../shops/shop-admin.service';
import { createSellerWithShop, type NewShop } from '../shops/shop-provisioning';
import { Seller } from '../shops/seller.entity';
import { checkPasswordPolicy, hashPassword, verifyPassword } from './password';
import { EmailVerification } from './seller-session.entity';
import { startSession } from './sessions';

export type SignUpMode = 'open' | 'invite';

export interface SignUpRequest {
  email: string;
  password: string;
  shopName: string;
}

/** Self sign-up: the seller, its shop and API key (shown once), a session, and an e-mail verification token. */
export async function signUp(em: EntityManager, mode: SignUpMode, request: SignUpRequest): Promise<NewShop & { sessionToken: string; verificationToken: string }> {
  if (mode !== 'open') throw domainError('SIGN_UP_CLOSED');
  const email = validSellerEmail(request.email).toLowerCase();
  const shopName = validShopName(request.shopName);
  checkPasswordPolicy(request.password ?? '');
  const passwordHash = await hashPassword(request.password);
  try {
    const created = await createSellerWithShop(em, { email, shopName });
    created.seller.passwordHash = passwordHash;
    created.seller.emailVerifiedAt = null;
    const sessionToken = startSession(em, created.seller);
    const verificationToken = issueVerification(em, created.seller);
    await em.flush();
    return { ...created, sessionToken, verificationToken };
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw domainError('EMAIL_TAKEN');
    throw error;
  }
}

/**
 * Sign-in. Unknown e-mail and wrong password get the same answer after the same scrypt work (no
 * enumeration). The 10th failure in a row locks the account for 30 minutes (PCI DSS v4 8.3.4); while
 * locked, even the right password is refused with a message that says so.
 */
export async function signIn(em: EntityManager, email: string, password: string, now = new Date()): Promise<{ seller: Seller; sessionToken: string }> {
  const seller = await em.findOne(Seller, { email: String(email ?? '').trim().toLowerCase() });
  const matches = await verifyPassword(String(password ?? ''), seller?.passwordHash ?? null);
  if (!seller || !seller.passwordHash) throw domainError('SIGN_IN_FAILED');
  if (seller.lockedUntil && seller.lockedUntil > now) throw domainError('ACCOUNT_LOCKED');
  if (!matches) return failSignIn(em, seller, now);
  if (seller.status !== 'active') throw domainError('SELLER_INACTIVE');
  seller.failedSignIns = 0;
  seller.lockedUntil = null;
  const sessionToken = startSession(em, seller);
  await em.flush();
  return { seller, sessionToken };
}

async function failSignIn(em: EntityManager, seller: Seller, now: Date): Promise<never> {
  // Counted in one UPDATE, so parallel guesses cannot each read the same count.
  const rows: { failed_sign_ins: number }[] = await em.execute(
    `update "sellers" set "failed_sign_ins" = "failed_sign_ins" + 1 where "id" = ? returning "failed_sign_ins"`,
    [seller.id],
  );
  if (rows[0].failed_sign_ins < SIGN_IN_MAX_FAILURES) throw domainError('SIGN_IN_FAILED');
  await em.execute(`update "sellers" set "failed_sign_ins" = 0, "locked_until" = ? where "id" = ?`, [
    new Date(now.getTime() + SIGN_IN_LOCKOUT_MINUTES * 60_000),
    seller.id,
  ]);
  throw domainError('ACCOUNT_LOCKED');
}

/** A new single-use verification token (the plaintext goes into the mailed link; its hash is stored). */
export function issueVerification(em: EntityManager, seller: Seller, now = new Date()): string {
  const token = randomBytes(32).toString('base64url');
  em.create(EmailVerification, { tokenHash: sha256Hex(token), seller, expiresAt: new Date(now.getTime() + EMAIL_VERIFICATION_TTL_HOURS * 3_600_000) });
  return token;
}

/** Marks the seller's address verified. The token works once, before it expires, for its own seller only. */
export async function verifyEmail(em: EntityManager, sellerId: string, token: string, now = new Date()): Promise<Seller> {
  const used = await em.nativeUpdate(
    EmailVerification,
    { tokenHash: sha256Hex(String(token ?? '')), seller: sellerId, usedAt: null, expiresAt: { $gt: now } },
    { usedAt: now },
  );
  if (used !== 1) throw domainError('VERIFICATION_TOKEN_INVALID');
  const seller = await em.findOneOrFail(Seller, sellerId);
  seller.emailVerifiedAt ??= now;
  await em.flush();
  return seller;
}
