import { Arg, Authorized, Ctx, Field, FieldResolver, ID, InputType, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { DateTimeISOResolver } from 'graphql-scalars';
import { currentSession } from '../../platform/graphql/request-scope';
import type { AccountServices, IdentityContext } from './identity-context';
import type { RequestScope } from '../../platform/graphql/request-scope';
import { domainError } from '../../shared/errors';
import { Seller } from './seller.entity';
import { SellerObject } from './seller.object';
import { Shop } from './shop.entity';
import { ShopObject } from './shop.object';
import { accountMails, type AccountMail } from './account-mails';
import { acceptInvitation, changePassword, reissueVerification, requestPasswordReset, resetPassword, signIn, signUp, verifyEmail } from './accounts.service';
import { beginTwoFactor, confirmIdentity, confirmPassword, confirmTwoFactor, disableTwoFactor, twoFactorEnabled, type IdentityProof } from './credentials';
import { activeSessions, csrfTokenFor, endAllSessions, endSession, revokeOwnSession, userAgentSummary } from './sessions';
import { normalEmail } from '../../shared/email';
import { sha256Hex } from '../../shared/secrets';

@InputType()
export class SignUpInput {
  @Field(() => String) email!: string;
  @Field(() => String, { description: 'At least 12 characters, not a common password.' }) password!: string;
  @Field(() => String, { description: '1 to 200 characters.' }) shopName!: string;
}

@ObjectType()
export class SignedIn {
  @Field(() => SellerObject) seller!: Seller;
  @Field(() => String, { description: 'Send it in X-CSRF-Token with every request of this session (also in the hcp_csrf cookie).' })
  csrfToken!: string;
}

@ObjectType()
export class SignedUp extends SignedIn {
  @Field(() => ShopObject) shop!: Shop;
  @Field(() => String, { description: 'svc_live_…: shown once; only its hash is stored.' }) apiKey!: string;
  @Field(() => String, { description: 'whsec_…: shown once.' }) webhookSecret!: string;
}

@ObjectType({ description: 'A two-factor enrolment, shown once: type the secret or scan the QR code, then confirm with a first code.' })
export class TwoFactorEnrolment {
  @Field(() => String, { description: 'The shared secret, base32.' }) secret!: string;
  @Field(() => String, { description: 'otpauth://totp/… (RFC 6238: SHA-1, 6 digits, 30 seconds).' }) otpauthUri!: string;
  @Field(() => String, { description: 'The URI as a QR code, an SVG document drawn by the server (no outside service).' }) qrCodeSvg!: string;
}

@ObjectType({ description: 'A signed-in browser of this account.' })
export class AccountSession {
  @Field(() => ID) id!: string;
  @Field(() => DateTimeISOResolver) createdAt!: Date;
  @Field(() => DateTimeISOResolver) lastSeenAt!: Date;
  @Field(() => String, { description: 'Browser and system, e.g. "Firefox on Linux".' }) userAgent!: string;
  @Field(() => Boolean, { description: 'The session this request comes from.' }) current!: boolean;
}

const CODE = { nullable: true, description: 'The authentication code (TOTP or a recovery code), when two-factor is on.' } as const;

/**
 * The dashboard's accounts (docs/dashboard.md). The rules live in accounts.service.ts, credentials.ts and
 * sessions.ts; mails are put in the mail outbox once the work is committed (`mail` below).
 */
@Resolver(() => SellerObject)
export class AccountResolver {
  @Mutation(() => SignedUp, { description: 'Creates a seller, its shop and API key, and signs in. SELLER_SIGNUP=invite refuses it.' })
  async signUp(@Arg('input', () => SignUpInput) input: SignUpInput, @Ctx() context: IdentityContext): Promise<SignedUp> {
    await countAttempt(context);
    const created = await signUp(context.em, context.services.accounts.signup, input, context.services.accounts.secrets, context.userAgent, context.knownDevice.token);
    context.knownDevice.remember(created.deviceToken);
    await mail(context, created.seller.id, accountMails.verification(context.baseUrl, created.seller.email, created.verificationToken));
    return { ...created, csrfToken: started(context, created.sessionToken) };
  }

  @Mutation(() => SignedIn, {
    description:
      'A new session (a new id every time: no session fixation). With two-factor on, `code` is needed (AUTHENTICATION_CODE_REQUIRED without it). 10 failures lock the account for 30 minutes; a browser that signed in before (its known-device cookie) has its own count, so strangers cannot lock it out.',
  })
  async signIn(
    @Arg('email', () => String) email: string,
    @Arg('password', () => String) password: string,
    @Arg('code', () => String, CODE) code: string | null,
    @Ctx() context: IdentityContext,
  ): Promise<SignedIn> {
    await countAttempt(context);
    const device = context.knownDevice;
    const { secrets, noticeNewSignIn } = context.services.accounts;
    const { seller, sessionToken, deviceToken } = await signIn(context.em, secrets, noticeNewSignIn, email, password, code, context.userAgent, device.token);
    device.remember(deviceToken);
    return { seller, csrfToken: started(context, sessionToken) };
  }

  @Mutation(() => Boolean, { description: 'An invited seller chooses a password with the token of the invitation link (single use, 72 hours); then signs in.' })
  async acceptInvitation(@Arg('token', () => String) token: string, @Arg('password', () => String) password: string, @Ctx() context: IdentityContext): Promise<boolean> {
    await countAttempt(context);
    await acceptInvitation(context.em, token, password);
    return true;
  }

  @Mutation(() => Boolean, { description: 'Mails a password reset link (single use, 30 minutes) if the address has an account; the answer is the same either way.' })
  async requestPasswordReset(@Arg('email', () => String) email: string, @Ctx() context: IdentityContext): Promise<boolean> {
    await countAttempt(context);
    // Per address, whoever asks (PASSWORD_RESET_MAILS_PER_HOUR): nobody can flood a mailbox with reset mails. Over it,
    // no new link is made (the last one mailed keeps working) and the answer is the same as ever.
    const addressHash = sha256Hex(`reset:${normalEmail(email)}`);
    if (!(await context.services.accounts.resetMailsPerAddress.consume(addressHash)).allowed) {
      context.services.logger.warn({ addressHash: addressHash.slice(0, 12) }, 'password reset mail not sent: too many for this address this hour');
      return true;
    }
    const reset = await requestPasswordReset(context.em, email);
    if (reset) await mail(context, reset.seller.id, accountMails.passwordReset(context.baseUrl, reset.seller.email, reset.token));
    return true;
  }

  @Mutation(() => Boolean, {
    description:
      'A new password from the reset link: every session ends and the lockout is cleared; then sign in. On an address never verified, the account is taken over clean (two-factor off, shop and API key deleted, webhook URL and payout account cleared).',
  })
  async resetPassword(@Arg('token', () => String) token: string, @Arg('password', () => String) password: string, @Ctx() context: IdentityContext): Promise<boolean> {
    await countAttempt(context);
    const { seller, reclaimedShops } = await resetPassword(context.em, token, password);
    // The deleted shop's key stops on every instance from the next request (as after any shop deletion).
    for (const shopId of reclaimedShops ?? []) await context.services.credentials.invalidateShop(shopId);
    if (reclaimedShops) context.services.logger.info({ requestId: context.requestId, sellerId: seller.id, shopIds: reclaimedShops }, 'unverified account taken over from its reset link');
    await mail(context, seller.id, reclaimedShops ? accountMails.accountReclaimed(context.baseUrl, seller.email) : accountMails.passwordChanged(context.baseUrl, seller.email));
    return true;
  }

  @Authorized('SELLER')
  @Mutation(() => Boolean, { description: 'Needs the current password; every other session of the seller ends.' })
  async changePassword(
    @Arg('currentPassword', () => String) currentPassword: string,
    @Arg('newPassword', () => String) newPassword: string,
    @Ctx() context: IdentityContext,
  ): Promise<boolean> {
    const session = currentSession(context);
    const seller = await changePassword(context.em, session.sellerId, session.sessionId, currentPassword, newPassword, context.knownDevice.token);
    await mail(context, seller.id, accountMails.passwordChanged(context.baseUrl, seller.email));
    return true;
  }

  @Authorized('SELLER')
  @Mutation(() => Boolean, { description: 'Ends this dashboard session.' })
  async signOut(@Ctx() context: IdentityContext): Promise<boolean> {
    await endSession(context.em, currentSession(context).sessionId);
    context.sessionCookies.clear();
    return true;
  }

  @Authorized('SELLER')
  @Mutation(() => Boolean, { description: 'Ends every dashboard session of the seller, this one included.' })
  async signOutEverywhere(@Ctx() context: IdentityContext): Promise<boolean> {
    await endAllSessions(context.em, currentSession(context).sellerId);
    context.sessionCookies.clear();
    return true;
  }

  @Authorized('SELLER')
  @Query(() => [AccountSession], { description: "The seller's signed-in browsers, most recently used first." })
  async mySessions(@Ctx() context: IdentityContext): Promise<AccountSession[]> {
    const session = currentSession(context);
    const sessions = await activeSessions(context.em, 'seller', session.sellerId, context.services.accounts.sessions);
    return sessions.map((s) => ({ ...s, userAgent: userAgentSummary(s.userAgent), current: s.id === session.sessionId }));
  }

  @Authorized('SELLER')
  @Mutation(() => Boolean, { description: 'Ends one of your sessions (another seller’s is SESSION_NOT_FOUND).' })
  async revokeSession(@Arg('id', () => ID) id: string, @Ctx() context: IdentityContext): Promise<boolean> {
    const session = currentSession(context);
    if (!(await revokeOwnSession(context.em, 'seller', session.sellerId, id))) throw domainError('SESSION_NOT_FOUND');
    if (id === session.sessionId) context.sessionCookies.clear();
    return true;
  }

  @Authorized('SELLER')
  @Mutation(() => SellerObject, { description: 'Proves the e-mail address with the token of the mailed link (single use, expires after 24 hours).' })
  verifyEmail(@Arg('token', () => String) token: string, @Ctx() context: IdentityContext): Promise<Seller> {
    return verifyEmail(context.em, currentSession(context).sellerId, token);
  }

  @Authorized('SELLER')
  @Mutation(() => Boolean, { description: 'Mails a new verification link (24 hours) while the address is unverified; false when it is verified already.' })
  async resendVerificationEmail(@Ctx() context: IdentityContext): Promise<boolean> {
    const issued = await reissueVerification(context.em, currentSession(context).sellerId);
    if (!issued) return false;
    await mail(context, issued.seller.id, accountMails.verification(context.baseUrl, issued.seller.email, issued.token));
    return true;
  }

  @Authorized('SELLER')
  @Mutation(() => TwoFactorEnrolment, {
    description: 'Starts two-factor: needs the password; a new secret, shown once with its QR code; not in force until confirmTwoFactor.',
  })
  async beginTwoFactor(@Arg('password', () => String) password: string, @Ctx() context: IdentityContext): Promise<TwoFactorEnrolment> {
    const sellerId = currentSession(context).sellerId;
    // A stolen session alone cannot put the account behind an authenticator the owner does not have.
    await confirmPassword(context.em, 'seller', sellerId, password, context.knownDevice.token);
    return beginTwoFactor(context.em, context.services.accounts.secrets, 'seller', sellerId);
  }

  @Authorized('SELLER')
  @Mutation(() => [String], { description: 'The first code from the app turns two-factor on; answers 10 single-use recovery codes, shown once.' })
  async confirmTwoFactor(@Arg('code', () => String) code: string, @Ctx() context: IdentityContext): Promise<string[]> {
    const sellerId = currentSession(context).sellerId;
    const codes = await confirmTwoFactor(context.em, context.services.accounts.secrets, 'seller', sellerId, code);
    await mail(context, sellerId, accountMails.twoFactorChanged(context.baseUrl, (await context.em.findOneOrFail(Seller, sellerId)).email, true));
    return codes;
  }

  @Authorized('SELLER')
  @Mutation(() => Boolean, { description: 'Turns two-factor off: needs the password and a current code (or a recovery code).' })
  async disableTwoFactor(@Arg('password', () => String) password: string, @Arg('code', () => String) code: string, @Ctx() context: IdentityContext): Promise<boolean> {
    const sellerId = currentSession(context).sellerId;
    await disableTwoFactor(context.em, context.services.accounts.secrets, 'seller', sellerId, password, code, context.knownDevice.token);
    await mail(context, sellerId, accountMails.twoFactorChanged(context.baseUrl, (await context.em.findOneOrFail(Seller, sellerId)).email, false));
    return true;
  }

  @Authorized('SELLER')
  @Query(() => SellerObject, { description: 'The seller signed in to the dashboard.' })
  currentSeller(@Ctx() context: IdentityContext): Promise<Seller> {
    return context.em.findOneOrFail(Seller, currentSession(context).sellerId);
  }

  @FieldResolver(() => Boolean, { description: 'Whether sign-in asks for an authentication code (TOTP).' })
  twoFactorEnabled(@Root() seller: Seller, @Ctx() context: IdentityContext): Promise<boolean> {
    return twoFactorEnabled(context.em, 'seller', seller.id);
  }
}

function started(context: IdentityContext, sessionToken: string): string {
  const csrfToken = csrfTokenFor(sessionToken);
  context.sessionCookies.start(sessionToken, csrfToken);
  return csrfToken;
}

/** ACCOUNT_ATTEMPTS_PER_CLIENT: one client address cannot try many accounts (or many sign-ups) at speed. */
export async function countAttempt(context: IdentityContext): Promise<void> {
  const decision = await context.services.accounts.attemptsPerClient.consume(context.clientAddress);
  if (!decision.allowed) throw domainError('RATE_LIMITED', decision.retryAfterSeconds);
}

/**
 * Re-authentication before a sensitive change (docs/dashboard.md, "Re-authentication"): a dashboard session
 * proves it is still its person (the current password, or a current code with two-factor on). An API key is
 * itself the credential, and an owner admin signed in with two factors or holds a token: neither is asked.
 */
export async function reauthenticated(
  context: Pick<RequestScope, 'em' | 'actor' | 'knownDevice'> & { services: { accounts: Pick<AccountServices, 'secrets'> } },
  proof: IdentityProof,
): Promise<void> {
  if (context.actor.kind !== 'session') return;
  await confirmIdentity(context.em, context.services.accounts.secrets, 'seller', context.actor.sellerId, proof, context.knownDevice.token);
}

/** The arguments re-authentication adds to a sensitive mutation (dashboard sessions must send one of them). */
export const CURRENT_PASSWORD_ARG = { nullable: true, description: 'Dashboard sessions with two-factor off: the current password (REAUTHENTICATION_REQUIRED without it). API keys and admins omit it.' } as const;
export const CURRENT_CODE_ARG = { nullable: true, description: 'Dashboard sessions with two-factor on: a current authentication code (or a recovery code). API keys and admins omit it.' } as const;

/**
 * Once the work is committed, so no mail tells of something rolled back: the mail goes into the mail outbox, whose
 * workers send it (src/modules/notifications/account-mail.ts). A mail that cannot be written is logged, without its
 * words, and the request still answers as it would have: its work is done, and the person can ask again.
 */
export async function mail(context: IdentityContext, sellerId: string, message: AccountMail): Promise<void> {
  try {
    await context.services.accounts.queueMail(context.em, sellerId, message);
  } catch (error) {
    context.services.logger.error({ requestId: context.requestId, mail: { kind: message.kind }, err: (error as Error).message }, 'account mail not written to the outbox: not sent');
  }
}
