import { Arg, Authorized, Ctx, Field, ID, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { Admin } from '../admins';
import { AdminObject } from '../admins/web';
import { recordAuditNow } from '../audit';
import { currentAdmin } from '../../platform/graphql/request-scope';
import type { IdentityContext } from './identity-context';
import { domainError } from '../../shared/errors';
import { AccountSession, countAttempt, mail, TwoFactorEnrolment } from './account.resolver';
import { adminSignIn, beginAdminSetup, confirmAdminSetup } from './admin-accounts';
import { accountMails } from './account-mails';
import { inviteSeller, resetSellerTwoFactor } from './accounts.service';
import { Seller } from './seller.entity';
import { SellerObject } from './seller.object';
import { activeSessions, csrfTokenFor, endSession, revokeOwnSession, userAgentSummary } from './sessions';

@ObjectType()
export class AdminSignedIn {
  @Field(() => AdminObject) admin!: Admin;
  @Field(() => String, { description: 'Send it in X-CSRF-Token with every request of this admin session (also in the hcp_admin_csrf cookie).' })
  csrfToken!: string;
}

/** The admin console's sign-in (docs/admin.md): password and TOTP, always; set up from a link the CLI prints. */
@Resolver()
export class AdminAccountResolver {
  @Mutation(() => AdminSignedIn, { description: 'Admin sign-in: e-mail, password and authentication code (TOTP or a recovery code), always (PCI DSS v4 8.4.2).' })
  async adminSignIn(
    @Arg('email', () => String) email: string,
    @Arg('password', () => String) password: string,
    @Arg('code', () => String) code: string,
    @Ctx() context: IdentityContext,
  ): Promise<AdminSignedIn> {
    await countAttempt(context);
    const device = context.knownDevice;
    const { admin, sessionToken, deviceToken } = await adminSignIn(context.em, context.services.accounts.secrets, email, password, code, context.userAgent, device.token);
    device.remember(deviceToken);
    const csrfToken = csrfTokenFor(sessionToken);
    context.adminSessionCookies.start(sessionToken, csrfToken);
    return { admin, csrfToken };
  }

  @Mutation(() => TwoFactorEnrolment, { description: 'Set-up link, step 1: the password, and a TOTP secret shown once with its QR code.' })
  async adminSetUp(@Arg('token', () => String) token: string, @Arg('password', () => String) password: string, @Ctx() context: IdentityContext): Promise<TwoFactorEnrolment> {
    await countAttempt(context);
    return beginAdminSetup(context.em, context.services.accounts.secrets, token, password);
  }

  @Mutation(() => [String], { description: 'Set-up link, step 2: the first code turns two-factor on and uses the link up; answers 10 recovery codes, shown once.' })
  async confirmAdminSetUp(@Arg('token', () => String) token: string, @Arg('code', () => String) code: string, @Ctx() context: IdentityContext): Promise<string[]> {
    await countAttempt(context);
    return confirmAdminSetup(context.em, context.services.accounts.secrets, token, code);
  }

  @Authorized('OWNER')
  @Mutation(() => Boolean, { description: 'Mails a seller without a password a new invitation link (single use, 72 hours); earlier links stop working.' })
  async inviteSeller(@Arg('sellerId', () => ID) sellerId: string, @Ctx() context: IdentityContext): Promise<boolean> {
    await sendInvitation(context, sellerId);
    await recordAuditNow(context.em, currentAdmin(context), { action: 'seller.invited', targetType: 'seller', targetId: sellerId, details: {} });
    return true;
  }

  @Authorized('OWNER')
  @Mutation(() => SellerObject, {
    description:
      "Turns a seller's two-factor off (a lost phone, an authenticator that is not theirs): the reason is kept in the audit log, every session of the seller ends, and the seller is mailed.",
  })
  async resetSellerTwoFactor(@Arg('sellerId', () => ID) sellerId: string, @Arg('reason', () => String) reason: string, @Ctx() context: IdentityContext): Promise<Seller> {
    const seller = await resetSellerTwoFactor(context.em, currentAdmin(context), sellerId, reason);
    await mail(context, seller.id, accountMails.twoFactorResetByAdmin(context.baseUrl, seller.email));
    return seller;
  }

  @Authorized('ADMIN')
  @Mutation(() => Boolean, { description: 'Ends this admin console session (an admin token has nothing to end: revoke it instead).' })
  async adminSignOut(@Ctx() context: IdentityContext): Promise<boolean> {
    await endSession(context.em, adminSessionId(context), 'admin');
    context.adminSessionCookies.clear();
    return true;
  }

  @Authorized('ADMIN')
  @Query(() => [AccountSession], { description: "The calling admin's console sessions, most recently used first." })
  async myAdminSessions(@Ctx() context: IdentityContext): Promise<AccountSession[]> {
    const admin = currentAdmin(context);
    const current = context.actor.kind === 'admin' ? context.actor.sessionId : undefined;
    const sessions = await activeSessions(context.em, 'admin', admin.id, context.services.accounts.sessions);
    return sessions.map((s) => ({ ...s, userAgent: userAgentSummary(s.userAgent), current: s.id === current }));
  }

  @Authorized('ADMIN')
  @Mutation(() => Boolean, { description: 'Ends one of your own console sessions.' })
  async revokeAdminSession(@Arg('id', () => ID) id: string, @Ctx() context: IdentityContext): Promise<boolean> {
    if (!(await revokeOwnSession(context.em, 'admin', currentAdmin(context).id, id))) throw domainError('SESSION_NOT_FOUND');
    return true;
  }
}

/** The invitation mail of a seller an admin created (docs/dashboard.md, "Invitations"). */
export async function sendInvitation(context: IdentityContext, sellerId: string): Promise<void> {
  const { seller, token } = await inviteSeller(context.em, sellerId);
  await mail(context, seller.id, accountMails.invitation(context.baseUrl, seller.email, token));
}

function adminSessionId(context: IdentityContext): string {
  if (context.actor.kind !== 'admin' || !context.actor.sessionId) throw domainError('SESSION_REQUIRED');
  return context.actor.sessionId;
}
