import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { domainError } from '../shared/errors';
import { EMAIL_VERIFICATION_TTL_HOURS } from '../shared/limits';
import { sha256Hex } from '../shared/secrets';
import { validSellerEmail, validShopName } from '../shops/shop-admin.service';
import { createSellerWithShop, type NewShop } from '../shops/shop-provisioning';
import { Seller } from '../shops/seller.entity';
import { consumeAccountToken, issueAccountToken } from './account-tokens';
import { authenticate, confirmPassword, replacePassword, setPasswordHash } from './credentials';
import { checkPasswordPolicy, hashPassword } from './password';
import type { SecretBox } from './secret-box';
import { EmailVerification } from './seller-session.entity';
import { endAllSessions, startSession } from './sessions';

export type SignUpMode = 'open' | 'invite';

export interface SignUpRequest {
  email: string;
  password: string;
  shopName: string;
}

/** Self sign-up: the seller, its shop and API key (shown once), a session, and an e-mail verification token. */
export async function signUp(em: EntityManager, mode: SignUpMode, request: SignUpRequest, userAgent: string | null = null): Promise<NewShop & { sessionToken: string; verificationToken: string }> {
  if (mode !== 'open') throw domainError('SIGN_UP_CLOSED');
  const email = validSellerEmail(request.email).toLowerCase();
  const shopName = validShopName(request.shopName);
  checkPasswordPolicy(request.password ?? '');
  const passwordHash = await hashPassword(request.password);
  try {
    const created = await createSellerWithShop(em, { email, shopName });
    created.seller.passwordHash = passwordHash;
    created.seller.emailVerifiedAt = null;
    const sessionToken = startSession(em, created.seller, userAgent);
    const verificationToken = issueVerification(em, created.seller);
    await em.flush();
    return { ...created, sessionToken, verificationToken };
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw domainError('EMAIL_TAKEN');
    throw error;
  }
}

/**
 * Sign-in (src/accounts/credentials.ts has the rules: no enumeration, lockout after 10 failures, the
 * second factor when it is on). Every sign-in is a new session (no fixation).
 */
export async function signIn(em: EntityManager, box: SecretBox, email: string, password: string, code: string | null = null, userAgent: string | null = null): Promise<{ seller: Seller; sessionToken: string }> {
  const sellerId = await authenticate(em, box, 'seller', email, password, code);
  const seller = await em.findOneOrFail(Seller, sellerId);
  await em.refresh(seller);
  const sessionToken = startSession(em, seller, userAgent);
  await em.flush();
  return { seller, sessionToken };
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

/**
 * An invitation for a seller an admin or operator created (they have no password yet): a single-use link
 * valid 72 hours. Refused for a seller who already has a password (they use "forgot password").
 */
export async function inviteSeller(em: EntityManager, sellerId: string): Promise<{ seller: Seller; token: string }> {
  const seller = await em.findOne(Seller, { id: sellerId });
  if (!seller) throw domainError('SELLER_NOT_FOUND');
  if (seller.passwordHash) throw domainError('SELLER_ALREADY_HAS_PASSWORD');
  return { seller, token: await issueAccountToken(em, 'invitation', seller.id) };
}

/**
 * The invited seller chooses a password (the password rule applies). The link proved the mailbox, so the
 * address counts as verified. The seller then signs in.
 */
export async function acceptInvitation(em: EntityManager, token: string, password: string, now = new Date()): Promise<Seller> {
  checkPasswordPolicy(String(password ?? ''));
  const passwordHash = await hashPassword(password);
  const sellerId = await consumeAccountToken(em, 'invitation', token, now);
  if (!sellerId) throw domainError('LINK_INVALID');
  await replacePassword(em, 'seller', sellerId, passwordHash);
  await em.execute(`update "sellers" set "email_verified_at" = coalesce("email_verified_at", ?) where "id" = ?`, [now, sellerId]);
  return em.findOneOrFail(Seller, sellerId, { refresh: true });
}

/**
 * "Forgot password": the same answer whether or not the address has an account (no enumeration). The
 * token (30 minutes) is answered for the caller to mail, or null; the mail goes out in the background, so
 * the answer's timing does not tell either. A seller without a password yet gets nothing (an invitation is their way in).
 */
export async function requestPasswordReset(em: EntityManager, email: string): Promise<{ seller: Seller; token: string } | null> {
  const seller = await em.findOne(Seller, { email: String(email ?? '').trim().toLowerCase() });
  if (!seller?.passwordHash) return null;
  return { seller, token: await issueAccountToken(em, 'password_reset', seller.id) };
}

/**
 * A new password from a reset link: the rule applies, the link works once, the lockout is cleared and
 * every session ends (whoever knew the old password is out). Answers the seller, for the "changed" mail.
 */
export async function resetPassword(em: EntityManager, token: string, password: string, now = new Date()): Promise<Seller> {
  checkPasswordPolicy(String(password ?? ''));
  const passwordHash = await hashPassword(password);
  const sellerId = await consumeAccountToken(em, 'password_reset', token, now);
  if (!sellerId) throw domainError('LINK_INVALID');
  await replacePassword(em, 'seller', sellerId, passwordHash);
  await endAllSessions(em, sellerId);
  return em.findOneOrFail(Seller, sellerId, { refresh: true });
}

/** Change password: the current one is needed (a failure counts towards the lockout); every other session ends. */
export async function changePassword(em: EntityManager, sellerId: string, sessionId: string, currentPassword: string, newPassword: string): Promise<Seller> {
  await confirmPassword(em, 'seller', sellerId, currentPassword);
  checkPasswordPolicy(String(newPassword ?? ''));
  await setPasswordHash(em, 'seller', sellerId, await hashPassword(newPassword));
  await endAllSessions(em, sellerId, 'seller', sessionId);
  return em.findOneOrFail(Seller, sellerId, { refresh: true });
}
