import request from 'supertest';
import { adminClient } from '../../support/admin-client';
import { dashboard, newEmail, sessionCookieOf, signUpSeller, STRONG_PASSWORD, type DashboardSession } from '../../support/dashboard-client';
import { startMailServer, useMailServer } from '../../support/mail-server';
import { startTestService, useTestService } from '../../support/test-service';
import { eventually } from '../../support/admin-client';
import { mailsSettled, outboxMailsTo } from '../../support/mail-outbox';
import { useEmptyDatabase } from '../../support/databases';
import { mailText } from '../../../src/modules/notifications/mail-listing';

/**
 * The account mails (docs/dashboard.md): invitations, password reset, password change, and what happens
 * without SMTP or with SMTP down. A real SMTP server on loopback receives the mails; the tests follow the
 * links in them, as a person would. Clocks are moved in the database, never by sleeping.
 */
const mail = useMailServer();
const service = useTestService(() => ({ SMTP_URL: mail.url, SELLER_SIGNUP: 'invite' }));

const code = (res: request.Response) => res.body.errors?.[0]?.extensions?.code ?? null;
const sql = (query: string, params: unknown[] = []) => service.em().execute(query, params);
const signIn = (email: string, password: string) => dashboard(service.url, 'SignIn', { email, password });
const whoAmI = (session: Partial<DashboardSession>) => dashboard(service.url, 'CurrentSeller', {}, session);
const sessionOf = (res: request.Response): DashboardSession => ({ cookie: sessionCookieOf(res), csrfToken: res.body.data.signIn.csrfToken });

/** A seller an owner admin creates (SELLER_SIGNUP=invite); the invitation mail's token. */
async function invitedSeller() {
  const owner = await adminClient(service);
  const email = newEmail();
  const data = await owner.ok('mutation($email: String!) { createSellerWithShop(email: $email, shop: { shopName: "Invited" }) { seller { id } } }', { email });
  return { email, sellerId: data.createSellerWithShop.seller.id as string, owner };
}

describe('invitations (SELLER_SIGNUP=invite)', () => {
  test('an admin creates a seller; the mailed link sets the password once; the seller then signs in, address verified', async () => {
    const { email, sellerId } = await invitedSeller();
    const invitation = await mail.mailTo(email, /invited/);
    const link = invitation.links.find((l) => l.searchParams.has('token'))!;
    expect(link.origin + link.pathname).toBe('https://pay.example.test/dashboard/accept-invitation');
    const token = link.searchParams.get('token')!;
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    // Stored hashed: the token itself is nowhere in the table.
    expect(JSON.stringify(await sql('select * from "account_tokens" where "account_id" = ?', [sellerId]))).not.toContain(token);

    expect(code(await signIn(email, STRONG_PASSWORD))).toBe('SIGN_IN_FAILED');
    expect(code(await dashboard(service.url, 'AcceptInvitation', { token, password: 'Password1234' }))).toBe('PASSWORD_TOO_COMMON');
    expect((await dashboard(service.url, 'AcceptInvitation', { token, password: STRONG_PASSWORD })).body.data).toEqual({ acceptInvitation: true });
    expect(code(await dashboard(service.url, 'AcceptInvitation', { token, password: 'another-long-passphrase-9' }))).toBe('LINK_INVALID');

    const signedIn = await signIn(email, STRONG_PASSWORD);
    expect(signedIn.body.data.signIn.seller).toMatchObject({ id: sellerId, emailVerifiedAt: expect.any(String) });
    expect(code(await signIn(email, 'another-long-passphrase-9'))).toBe('SIGN_IN_FAILED');
  });

  test('an expired invitation is refused; a new one (inviteSeller) works and the older link stops', async () => {
    const { email, sellerId, owner } = await invitedSeller();
    const first = await mail.linkTokenTo(email, /invited/);
    await sql(`update "account_tokens" set "expires_at" = now() - interval '1 second' where "account_id" = ?`, [sellerId]);
    expect(code(await dashboard(service.url, 'AcceptInvitation', { token: first, password: STRONG_PASSWORD }))).toBe('LINK_INVALID');
    await sql(`update "account_tokens" set "expires_at" = now() + interval '1 hour' where "account_id" = ?`, [sellerId]);
    await owner.ok('mutation($id: ID!) { inviteSeller(sellerId: $id) }', { id: sellerId });
    const second = await mail.linkTokenTo(email, /invited/);
    expect(code(await dashboard(service.url, 'AcceptInvitation', { token: first, password: STRONG_PASSWORD }))).toBe('LINK_INVALID');
    expect(code(await dashboard(service.url, 'AcceptInvitation', { token: second, password: STRONG_PASSWORD }))).toBeNull();
    // Now they have a password: no more invitations (they reset it instead).
    expect((await owner.run('mutation($id: ID!) { inviteSeller(sellerId: $id) }', { id: sellerId })).errors?.[0]?.extensions?.code).toBe('SELLER_ALREADY_HAS_PASSWORD');
  });

  test('a password-reset token or a made-up token does not accept an invitation', async () => {
    const seller = await invited();
    await dashboard(service.url, 'RequestPasswordReset', { email: seller.email });
    const resetToken = await mail.linkTokenTo(seller.email, /Reset your password/);
    expect(code(await dashboard(service.url, 'AcceptInvitation', { token: resetToken, password: 'some-other-passphrase-5' }))).toBe('LINK_INVALID');
    expect(code(await dashboard(service.url, 'AcceptInvitation', { token: 'A'.repeat(43), password: 'some-other-passphrase-5' }))).toBe('LINK_INVALID');
  });
});

/** An invited seller who has accepted (password STRONG_PASSWORD). */
async function invited() {
  const seller = await invitedSeller();
  const token = await mail.linkTokenTo(seller.email, /invited/);
  expect(code(await dashboard(service.url, 'AcceptInvitation', { token, password: STRONG_PASSWORD }))).toBeNull();
  return seller;
}

describe('password reset', () => {
  test('the same answer for a known and an unknown address; only the known one gets a mail', async () => {
    const seller = await invited();
    const unknown = newEmail();
    const known = await dashboard(service.url, 'RequestPasswordReset', { email: seller.email.toUpperCase() });
    const other = await dashboard(service.url, 'RequestPasswordReset', { email: unknown });
    expect({ status: known.status, body: known.body }).toEqual({ status: other.status, body: other.body });
    expect(known.body.data).toEqual({ requestPasswordReset: true });
    await mail.mailTo(seller.email, /Reset your password/);
    await mailsSettled(service, [seller.email, unknown]);
    expect(await outboxMailsTo(service, unknown)).toEqual([]);
    expect(mail.received.some((m) => m.to.includes(unknown))).toBe(false);
  });

  test('the link sets a new password once, ends every session and clears the lockout; it expires after 30 minutes', async () => {
    const seller = await invited();
    const laptop = sessionOf(await signIn(seller.email, STRONG_PASSWORD));
    for (let i = 0; i < 10; i++) await signIn(seller.email, `wrong-password-${i}`);
    expect(code(await signIn(seller.email, STRONG_PASSWORD))).toBe('ACCOUNT_LOCKED');

    await dashboard(service.url, 'RequestPasswordReset', { email: seller.email });
    const token = await mail.linkTokenTo(seller.email, /Reset your password/);
    const [{ minutes }] = await sql(`select extract(epoch from "expires_at" - now()) / 60 as minutes from "account_tokens" where "account_id" = ? and "purpose" = 'password_reset' and "used_at" is null`, [seller.sellerId]);
    expect(Number(minutes)).toBeGreaterThan(29);
    expect(Number(minutes)).toBeLessThanOrEqual(30);

    expect(code(await dashboard(service.url, 'ResetPassword', { token, password: 'short' }))).toBe('PASSWORD_TOO_SHORT');
    const newPassword = 'fresh-granite-orchard-77';
    expect((await dashboard(service.url, 'ResetPassword', { token, password: newPassword })).body.data).toEqual({ resetPassword: true });
    expect(code(await dashboard(service.url, 'ResetPassword', { token, password: 'yet-another-passphrase-1' }))).toBe('LINK_INVALID');
    expect(code(await whoAmI(laptop))).toBe('OPERATION_NOT_ALLOWED');
    expect(code(await signIn(seller.email, STRONG_PASSWORD))).toBe('SIGN_IN_FAILED');
    expect(code(await signIn(seller.email, newPassword))).toBeNull();
    const changed = await mail.mailTo(seller.email, /password was changed/);
    expect(changed.text).toContain('https://pay.example.test/dashboard/login');

    await dashboard(service.url, 'RequestPasswordReset', { email: seller.email });
    const late = await mail.linkTokenTo(seller.email, /Reset your password/);
    await sql(`update "account_tokens" set "expires_at" = now() - interval '1 second' where "account_id" = ? and "purpose" = 'password_reset'`, [seller.sellerId]);
    expect(code(await dashboard(service.url, 'ResetPassword', { token: late, password: 'yet-another-passphrase-1' }))).toBe('LINK_INVALID');
  });

  test('two requests racing with one link: exactly one sets the password', async () => {
    const seller = await invited();
    await dashboard(service.url, 'RequestPasswordReset', { email: seller.email });
    const token = await mail.linkTokenTo(seller.email, /Reset your password/);
    const answers = await Promise.all(['racing-passphrase-one-1', 'racing-passphrase-two-2'].map((password) => dashboard(service.url, 'ResetPassword', { token, password })));
    expect(answers.map(code).sort()).toEqual(['LINK_INVALID', null].sort());
  });
});

describe('change password', () => {
  test('needs the current password; ends the other sessions, keeps this one; mails a notice', async () => {
    const seller = await invited();
    const here = sessionOf(await signIn(seller.email, STRONG_PASSWORD));
    const elsewhere = sessionOf(await signIn(seller.email, STRONG_PASSWORD));
    const change = (currentPassword: string, newPassword: string, session = here) => dashboard(service.url, 'ChangePassword', { currentPassword, newPassword }, session);
    expect(code(await change('not-my-password-at-all', 'brand-new-passphrase-3'))).toBe('PASSWORD_INCORRECT');
    expect(code(await change(STRONG_PASSWORD, 'Password1234'))).toBe('PASSWORD_TOO_COMMON');
    expect(code(await dashboard(service.url, 'ChangePassword', { currentPassword: STRONG_PASSWORD, newPassword: 'brand-new-passphrase-3' }))).toBe('OPERATION_NOT_ALLOWED');
    expect((await change(STRONG_PASSWORD, 'brand-new-passphrase-3')).body.data).toEqual({ changePassword: true });
    expect(code(await whoAmI(here))).toBeNull();
    expect(code(await whoAmI(elsewhere))).toBe('OPERATION_NOT_ALLOWED');
    expect(code(await signIn(seller.email, 'brand-new-passphrase-3'))).toBeNull();
    await mail.mailTo(seller.email, /password was changed/);
  });

  test('wrong current passwords count towards the lockout (a stolen session cannot guess at leisure)', async () => {
    const seller = await invited();
    const here = sessionOf(await signIn(seller.email, STRONG_PASSWORD));
    for (let i = 0; i < 9; i++) expect(code(await dashboard(service.url, 'ChangePassword', { currentPassword: `guess-number-${i}`, newPassword: 'brand-new-passphrase-3' }, here))).toBe('PASSWORD_INCORRECT');
    expect(code(await dashboard(service.url, 'ChangePassword', { currentPassword: 'guess-number-10', newPassword: 'brand-new-passphrase-3' }, here))).toBe('ACCOUNT_LOCKED');
    expect(code(await signIn(seller.email, STRONG_PASSWORD))).toBe('ACCOUNT_LOCKED');
  });
});

describe('sessions list', () => {
  test('lists this seller’s browsers with the current one marked; revoking one ends it; another seller’s is not found', async () => {
    const seller = await invited();
    const firefox = await request(service.url)
      .post('/graphql')
      .set('User-Agent', 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')
      .send({ query: (await import('../../support/dashboard-client')).DASHBOARD_DOCUMENT, operationName: 'SignIn', variables: { email: seller.email, password: STRONG_PASSWORD } });
    const phone = sessionOf(firefox);
    const here = sessionOf(await signIn(seller.email, STRONG_PASSWORD));
    const list = (await dashboard(service.url, 'MySessions', {}, here)).body.data.mySessions as { id: string; userAgent: string; current: boolean }[];
    expect(list).toHaveLength(2);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    expect(list.map((s) => s.userAgent)).toContain('Firefox on Linux');
    const other = list.find((s) => !s.current)!;

    const stranger = await invited();
    const theirs = sessionOf(await signIn(stranger.email, STRONG_PASSWORD));
    expect(code(await dashboard(service.url, 'RevokeSession', { id: other.id }, theirs))).toBe('SESSION_NOT_FOUND');
    expect(code(await whoAmI(phone))).toBeNull();
    expect((await dashboard(service.url, 'RevokeSession', { id: other.id }, here)).body.data).toEqual({ revokeSession: true });
    expect(code(await whoAmI(phone))).toBe('OPERATION_NOT_ALLOWED');
    expect((await dashboard(service.url, 'MySessions', {}, here)).body.data.mySessions).toHaveLength(1);
  });
});

describe('without SMTP, and with SMTP down', () => {
  // A database of their own: any service on the file's database sends any mail of its outbox with the file's SMTP server.
  const database = useEmptyDatabase('payments_mail_down');
  test('SMTP_URL unset: one warning at start; the mail is kept in the outbox, the log names it and never its link', async () => {
    const local = await startTestService({ DATABASE_URL: database.url });
    try {
      expect(local.logs.filter((l) => String(l.msg).startsWith('Mails (account mails, receipts, notifications) are kept in the database'))).toHaveLength(1);
      const seller = await signUpSeller(local.url);
      const kept = (await eventually(async () => (await outboxMailsTo(local, seller.email)).find((m) => m.status === 'kept'), 10_000, 'the verification mail to be kept'))!;
      expect(kept.kind).toBe('email-verification');
      expect(local.logs.filter((l) => JSON.stringify(l).includes(kept.id)).map((l) => l.msg)).toEqual([`mail kept, not sent (SMTP_URL unset): read it with npm run -s cli -- mail show ${kept.id}`]);
      expect(JSON.stringify(local.logs)).not.toMatch(/verify-email\?token=/);
      // The link is there for whoever runs the service (the CLI, the local mail viewer).
      const { text } = await mailText(local.em(), kept.id, local.services.accounts.secrets);
      expect(text).toMatch(/https:\/\/pay\.example\.test\/dashboard\/verify-email\?token=/);
    } finally {
      await local.stop();
    }
  });

  test('SMTP refusing connections: the request still succeeds at once; the failure is logged without the link', async () => {
    const dead = await startMailServer();
    await dead.close(); // its port now refuses connections
    const down = await startTestService({ SMTP_URL: dead.url, DATABASE_URL: database.url });
    try {
      const seller = await signUpSeller(down.url);
      expect(seller.apiKey).toMatch(/^svc_live_/);
      const [written] = await outboxMailsTo(down, seller.email);
      const retried = (l: Record<string, unknown>) => l.msg === 'mail not sent yet: SMTP failed, will retry' && (l.mail as { id?: string }).id === written.id;
      await waitFor(() => down.logs.some(retried));
      expect((down.logs.find(retried) as { mail: Record<string, unknown> }).mail).toEqual({ id: written.id, kind: 'email-verification', attempt: 1 });
      expect(JSON.stringify(down.logs)).not.toMatch(/verify-email\?token=/);
    } finally {
      await down.stop();
    }
  });
});

describe('per-client attempt limit (ACCOUNT_ATTEMPTS_PER_CLIENT)', () => {
  test('one client trying many addresses is stopped, whatever the addresses; the limit spans sign-in and reset', async () => {
    const limited = await startTestService({ ACCOUNT_ATTEMPTS_PER_CLIENT: '5', SELLER_SIGNUP: 'open' });
    try {
      for (let i = 0; i < 3; i++) expect(code(await dashboard(limited.url, 'SignIn', { email: newEmail(), password: 'guessing-passwords-0' }))).toBe('SIGN_IN_FAILED');
      for (let i = 0; i < 2; i++) expect(code(await dashboard(limited.url, 'RequestPasswordReset', { email: newEmail() }))).toBeNull();
      const refused = await dashboard(limited.url, 'SignIn', { email: newEmail(), password: 'guessing-passwords-0' });
      expect(code(refused)).toBe('RATE_LIMITED');
      expect(refused.body.errors[0].message).toMatch(/^Rate limit exceeded\. Try again in \d+ seconds\.$/);
      expect(code(await dashboard(limited.url, 'SignUp', { input: { email: newEmail(), password: STRONG_PASSWORD, shopName: 'S' } }))).toBe('RATE_LIMITED');
    } finally {
      await limited.stop();
    }
  });
});

/** Polls a condition on what the service has logged (no clock in the assertion: the test's own timeout bounds it). */
async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}
