import { normalEmail } from '../../shared/email';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { domainError } from '../../shared/errors';
import { EMAIL_VERIFICATION_TTL_HOURS } from '../../shared/limits';
import { sha256Hex } from '../../shared/secrets';
import { softDeleteShop, validSellerEmail, validShopName } from './shop-admin.service';
import { createSellerWithShop, type NewShop } from './shop-provisioning';
import { Seller } from './seller.entity';
import { consumeAccountToken, issueAccountToken } from './account-tokens';
import { authenticate, confirmPassword, removeTwoFactor, replacePassword, setPasswordHash } from './credentials';
import { lockSellerEmailVerification, lockSellerTwoFactor, markSellerEmailVerified } from './credential-store';
import { checkPasswordPolicy, hashPassword } from './password';
import type { SecretBox } from './secret-box';
import { EmailVerification } from './seller-session.entity';
import { endAllSessions, startSession, userAgentSummary } from './sessions';
import { forgetDevices, knownDevice, rememberDevice } from './known-devices';
import type { Admin } from '../admins';
import { validReason } from '../../shared/reason';
import { recordAudit } from '../audit';
import { Shop } from './shop.entity';

export type SignUpMode = 'open' | 'invite';

/** Queues the seller's "new sign-in" mail in the sign-in's transaction (`browser`: the User-Agent summarised). */
export type NewSignInNotice = (tx: EntityManager, sellerId: string, browser: string | null) => Promise<unknown>;

export interface SignUpRequest {
  email: string;
  password: string;
  shopName: string;
}

/**
 * Self sign-up: the seller, its shop and API key (shown once), a session, an e-mail verification token, and
 * the browser as a known device of the account (`device`: the token it sent; src/modules/identity/known-devices.ts).
 */
export async function signUp(
  em: EntityManager,
  mode: SignUpMode,
  request: SignUpRequest,
  secrets: SecretBox,
  userAgent: string | null = null,
  device: string | null = null,
): Promise<NewShop & { sessionToken: string; verificationToken: string; deviceToken: string }> {
  if (mode !== 'open') throw domainError('SIGN_UP_CLOSED');
  const email = validSellerEmail(request.email).toLowerCase();
  const shopName = validShopName(request.shopName);
  checkPasswordPolicy(request.password ?? '');
  const passwordHash = await hashPassword(request.password);
  try {
    const created = await createSellerWithShop(em, { email, shopName }, secrets);
    created.seller.passwordHash = passwordHash;
    created.seller.emailVerifiedAt = null;
    const sessionToken = startSession(em, created.seller, userAgent);
    const verificationToken = issueVerification(em, created.seller);
    await em.flush();
    return { ...created, sessionToken, verificationToken, deviceToken: await rememberDevice(em, created.seller.id, device) };
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw domainError('EMAIL_TAKEN');
    throw error;
  }
}

/**
 * Sign-in (src/modules/identity/credentials.ts has the rules: no enumeration, lockout after 10 failures, the
 * second factor when it is on). Every sign-in is a new session (no fixation). `device`: the token of the
 * browser's known-device cookie, if any; the answer's `deviceToken` replaces it (src/modules/identity/known-devices.ts).
 * `noticeNewSignIn` tells the seller of a browser that is not a known device.
 */
export async function signIn(
  em: EntityManager,
  box: SecretBox,
  noticeNewSignIn: NewSignInNotice,
  email: string,
  password: string,
  code: string | null = null,
  userAgent: string | null = null,
  device: string | null = null,
): Promise<{ seller: Seller; sessionToken: string; deviceToken: string }> {
  const sellerId = await authenticate(em, box, 'seller', email, password, code, device);
  const seller = await em.findOneOrFail(Seller, sellerId);
  await em.refresh(seller);
  // A browser that is not a known device of the account: the seller is told, in the sign-in's transaction.
  const newBrowser = !(await knownDevice(em, device, sellerId));
  await em.begin();
  try {
    const sessionToken = startSession(em, seller, userAgent);
    await em.flush();
    const deviceToken = await rememberDevice(em, sellerId, device);
    if (newBrowser) await noticeNewSignIn(em, sellerId, userAgentSummary(userAgent));
    await em.commit();
    return { seller, sessionToken, deviceToken };
  } catch (error) {
    await em.rollback();
    throw error;
  }
}

/** A new single-use verification token (the plaintext goes into the mailed link; its hash is stored). */
function issueVerification(em: EntityManager, seller: Seller, now = new Date()): string {
  const token = randomBytes(32).toString('base64url');
  em.create(EmailVerification, { tokenHash: sha256Hex(token), seller, expiresAt: new Date(now.getTime() + EMAIL_VERIFICATION_TTL_HOURS * 3_600_000) });
  return token;
}

/** A new verification link's token for the seller, written now; null when the address is verified already. */
export async function reissueVerification(em: EntityManager, sellerId: string): Promise<{ seller: Seller; token: string } | null> {
  const seller = await em.findOneOrFail(Seller, sellerId);
  if (seller.emailVerifiedAt) return null;
  const token = issueVerification(em, seller);
  await em.flush();
  return { seller, token };
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

/** A new invitation for the seller with this address (the operator's `seller-invitation-link`); null when none has it. */
export async function inviteSellerByEmail(em: EntityManager, email: string): Promise<{ seller: Seller; token: string } | null> {
  const seller = await em.findOne(Seller, { email: normalEmail(email) });
  return seller ? inviteSeller(em, seller.id) : null;
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
  await markSellerEmailVerified(em, now, sellerId);
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
 * A new password from a reset link: the rule applies, the link works once, the lockout is cleared, every
 * session ends and every known device is forgotten (whoever knew the old password is out). On an address
 * never verified, the person who just proved the mailbox takes the account over clean (`reclaimAccount`).
 * Answers the seller, for the mail, and the shops whose keys stopped when it was taken over (for the caches).
 */
export async function resetPassword(em: EntityManager, token: string, password: string, now = new Date()): Promise<{ seller: Seller; reclaimedShops: string[] | null }> {
  checkPasswordPolicy(String(password ?? ''));
  const passwordHash = await hashPassword(password);
  const { sellerId, reclaimedShops } = await em.transactional(async (tx) => {
    const sellerId = await consumeAccountToken(tx, 'password_reset', token, now);
    if (!sellerId) throw domainError('LINK_INVALID');
    await replacePassword(tx, 'seller', sellerId, passwordHash);
    const reclaimedShops = await reclaimAccount(tx, sellerId, now);
    await endAllSessions(tx, sellerId);
    await forgetDevices(tx, sellerId);
    return { sellerId, reclaimedShops };
  });
  return { seller: await em.findOneOrFail(Seller, sellerId, { refresh: true }), reclaimedShops };
}

/**
 * An address can be squatted: anyone may sign up with someone else's, set a webhook URL and turn two-factor
 * on, without ever reading its mail. So the first person to prove the mailbox through a mailed link while the
 * address is unverified takes the account over clean, in the caller's transaction: two-factor removed (the
 * squatter's authenticator), the live shop deleted (its API key revoked: the seller creates a new shop, whose
 * key is shown once), every shop's webhook URL and the payout account cleared, the address verified, and the
 * time noted (`reclaimed_at`: a new shop never keeps the webhook settings of a shop from before it). The
 * caller ends the sessions. Answers the shops deleted (their keys' cache entries must go), or null when the
 * address was verified already (nothing to clean: whoever signed in proved the mailbox before).
 */
export async function reclaimAccount(tx: EntityManager, sellerId: string, now = new Date()): Promise<string[] | null> {
  const row = await lockSellerEmailVerification(tx, sellerId);
  if (!row || row.emailVerifiedAt) return null;
  await removeTwoFactor(tx, sellerId);
  await tx.nativeUpdate(Seller, { id: sellerId }, { payoutAccountHolder: null, payoutAccountNumber: null, payoutAccountLast4: null, emailVerifiedAt: now, reclaimedAt: now });
  await tx.nativeUpdate(EmailVerification, { seller: sellerId, usedAt: null }, { usedAt: now });
  await tx.nativeUpdate(Shop, { seller: sellerId }, { webhookUrl: null });
  const live = await tx.find(Shop, { seller: sellerId, deletedAt: null }, { fields: ['id'] });
  for (const shop of live) await softDeleteShop(tx, shop.id, false);
  return live.map((shop) => shop.id);
}

/** Change password: the current one is needed (a failure counts towards the lockout); every other session ends, and every other known device is forgotten. */
export async function changePassword(em: EntityManager, sellerId: string, sessionId: string, currentPassword: string, newPassword: string, device: string | null = null): Promise<Seller> {
  await confirmPassword(em, 'seller', sellerId, currentPassword, device);
  checkPasswordPolicy(String(newPassword ?? ''));
  await setPasswordHash(em, 'seller', sellerId, await hashPassword(newPassword));
  await endAllSessions(em, sellerId, 'seller', sessionId);
  await forgetDevices(em, sellerId, device);
  return em.findOneOrFail(Seller, sellerId, { refresh: true });
}

/**
 * An owner admin turns a seller's two-factor off (a lost phone; an authenticator that is not the seller's),
 * always with a reason, in the audit log in the same transaction. The seller's sessions end; the resolver
 * mails the seller. Refused when two-factor is not on.
 */
export async function resetSellerTwoFactor(em: EntityManager, admin: Admin, sellerId: string, reason: string): Promise<Seller> {
  const text = validReason(reason);
  const seller = await em.findOne(Seller, { id: sellerId });
  if (!seller) throw domainError('SELLER_NOT_FOUND');
  await em.transactional(async (tx) => {
    const row = await lockSellerTwoFactor(tx, sellerId);
    if (!row?.totpEnabledAt) throw domainError('TWO_FACTOR_NOT_STARTED');
    await removeTwoFactor(tx, sellerId);
    await endAllSessions(tx, sellerId);
    recordAudit(tx, admin, { action: 'seller.two_factor_reset', targetType: 'seller', targetId: sellerId, reason: text, details: {} });
  });
  return em.refreshOrFail(seller);
}
