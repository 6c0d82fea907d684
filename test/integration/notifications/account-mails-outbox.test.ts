import { AdminRole } from '../../../src/modules/admins/admin-role';
import { adminClient, eventually } from '../../support/admin-client';
import { dashboard, signUpSeller, STRONG_PASSWORD } from '../../support/dashboard-client';
import { mailsSettled, outboxMailsTo } from '../../support/mail-outbox';
import { useSmtpSink, type SunkMail } from '../../support/smtp-sink';
import { useTestService } from '../../support/test-service';

/**
 * Account mails go through the mail outbox (docs/decisions/0001-mail-outbox.md, "Account mails"): the same claims,
 * retries and admin listing as receipts, with their words sealed at rest (ACCOUNT_SECRETS_KEY) and deleted once
 * sent. Their links are capabilities: whoever reads a reset link owns the account. So the raw table is read here
 * as a thief with a copy of the database would, and the back office as a support admin would, and neither holds
 * the token. A real SMTP server on loopback takes the mails, or refuses them when told.
 */
const KEY = '5c'.repeat(32);
const smtp = useSmtpSink();
const service = useTestService(() => ({ SMTP_URL: smtp.url, ACCOUNT_SECRETS_KEY: KEY, MAIL_RETRY_BASE_DELAY_MS: '300', MAIL_POLL_INTERVAL_MS: '100' }));

afterEach(() => {
  smtp.behaviour = 'accept';
});

const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) => service.em().execute<T[]>(query, params);
const mailRow = async (id: string) => (await sql('select * from "mail_outbox" where "id" = ?', [id]))[0];
const resetMailTo = async (email: string) => (await eventually(async () => (await outboxMailsTo(service, email)).find((m) => m.kind === 'password-reset'), 10_000, 'the reset mail row'))!;
const linkTokenOf = (mail: SunkMail) => new URL(String(mail.parsed.text).match(/https:\/\/\S+token=\S+/)![0]).searchParams.get('token')!;
const receivedTo = async (email: string, subject: RegExp) => (await smtp.waitFor((m) => m.envelopeTo.includes(email) && subject.test(m.parsed.subject ?? '')))[0];

test('a reset link at rest: sealed while SMTP defers it, the same message after the retry, deleted once sent; never in the table or the log', async () => {
  const seller = await signUpSeller(service.url);
  await receivedTo(seller.email, /Verify your email address/);
  smtp.behaviour = 'defer';
  expect((await dashboard(service.url, 'RequestPasswordReset', { email: seller.email })).body.data).toEqual({ requestPasswordReset: true });

  // Written out at its first claim, refused with a 451, waiting for its retry: what a copy of the database holds then.
  const { id } = await resetMailTo(seller.email);
  const waiting = (await eventually(async () => {
    const row = await mailRow(id);
    return row.status === 'pending' && Number(row.attempt_count) === 1 ? row : null;
  }, 10_000, 'the first attempt to be deferred'))!;
  expect(waiting).toMatchObject({ kind: 'password-reset', recipient: seller.email, seller_id: seller.sellerId, subject: 'Reset your password', text_body: null, html_body: null, raw_message: null });
  expect(waiting.message_id).toMatch(new RegExp(`^<${id}@`));
  expect(waiting.sealed_body).toMatch(/^aes2:[0-9a-f]{8}:[A-Za-z0-9_-]+$/);
  const atRest = JSON.stringify(await sql('select * from "mail_outbox" where "recipient" = ?', [seller.email]));

  smtp.behaviour = 'accept';
  const received = await receivedTo(seller.email, /Reset your password/);
  const token = linkTokenOf(received);
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(atRest).not.toContain(token);
  expect(atRest).not.toMatch(/reset-password|token=/);

  // The message the first claim wrote out went at the retry, byte for byte, from the service's own name.
  await mailsSettled(service, [seller.email]);
  const sent = await mailRow(id);
  expect(sent).toMatchObject({ status: 'sent', attempt_count: 2, sealed_body: null, text_body: null, html_body: null, raw_message: null });
  expect(received.parsed.messageId).toBe(sent.message_id);
  expect(received.parsed.from?.value).toEqual([{ name: 'Payments', address: 'no-reply@pay.example.test' }]);
  expect(received.headerLines).toContain('Auto-Submitted: auto-generated');
  const everything = JSON.stringify([await sql('select * from "mail_outbox"'), await sql('select * from "account_tokens"'), await sql('select * from "audit_log"')]);
  expect(everything).not.toContain(token);
  expect(JSON.stringify(service.logs)).not.toContain(token);
  // And the link works, once.
  expect((await dashboard(service.url, 'ResetPassword', { token, password: 'lantern-quarry-meadow-58' })).body.data).toEqual({ resetPassword: true });
});

test('admins list account mails with the others, never their words: no role reads a reset or invitation link, and a resend goes to the seller alone', async () => {
  const owner = await adminClient(service, AdminRole.OWNER);
  const support = await adminClient(service, AdminRole.SUPPORT);
  const finance = await adminClient(service, AdminRole.FINANCE);
  const invited = (await owner.ok('mutation($email: String!) { createSellerWithShop(email: $email, shop: { shopName: "Invited" }) { seller { id email } } }', { email: `invited-${Date.now()}@example.com` })).createSellerWithShop.seller;
  const invitation = linkTokenOf(await receivedTo(invited.email, /invited/));
  expect((await dashboard(service.url, 'AcceptInvitation', { token: invitation, password: STRONG_PASSWORD })).body.data).toEqual({ acceptInvitation: true });

  // Every field the mail type has, whatever is added to it later: none holds a mail's words.
  const fields = (await support.ok('{ __type(name: "MailOutboxEntry") { fields { name } } }')).__type.fields.map((f: { name: string }) => f.name) as string[];
  expect(fields.filter((name) => /body|text|html|raw|sealed|link|token|param/i.test(name))).toEqual([]);
  smtp.behaviour = 'reject';
  await dashboard(service.url, 'RequestPasswordReset', { email: invited.email });
  const { id } = await resetMailTo(invited.email);
  await eventually(async () => (await mailRow(id)).status === 'failed', 10_000, 'the refused reset mail to fail');

  const listing = `query($r: String!) { mails(filter: { recipient: $r }, limit: 100) { items { ${fields.join(' ')} } } }`;
  for (const admin of [support, finance, owner]) {
    const answer = await admin.ok(listing, { r: invited.email });
    expect(answer.mails.items.map((m: { kind: string }) => m.kind).sort()).toEqual(['invitation', 'password-reset']);
    expect(answer.mails.items.find((m: { kind: string }) => m.kind === 'password-reset')).toMatchObject({ id, status: 'FAILED', sellerId: invited.id, subject: 'Reset your password' });
    expect(JSON.stringify(answer)).not.toMatch(/token=|accept-invitation|reset-password/);
    expect(JSON.stringify(answer)).not.toContain(invitation);
  }

  // Support sends it again (the SMTP server fixed): to the seller's address, the message as written, nothing to the admin.
  smtp.behaviour = 'accept';
  const resent = await support.ok('mutation($id: ID!) { resendMail(id: $id, reason: "their mail server was down") { id status kind recipient } }', { id });
  expect(resent.resendMail).toEqual({ id, status: 'PENDING', kind: 'password-reset', recipient: invited.email });
  const received = await receivedTo(invited.email, /Reset your password/);
  expect(received.envelopeTo).toEqual([invited.email]);
  const token = linkTokenOf(received);
  expect(received.parsed.messageId).toBe((await mailRow(id)).message_id);
  const [audit] = await sql<{ action: string; details: unknown }>('select "action", "details" from "audit_log" where "target_id" = ?', [id]);
  expect(audit.action).toBe('mail.resent');
  expect(JSON.stringify(audit)).not.toContain(token);
  expect(smtp.received.filter((m) => m.parsed.text?.includes(token)).map((m) => m.envelopeTo)).toEqual([[invited.email]]);
});
