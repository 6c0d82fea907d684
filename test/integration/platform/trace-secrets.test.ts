import { generateKeyPairSync, randomBytes } from 'node:crypto';
import request from 'supertest';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { createAdmin } from '../../../src/modules/admins/admin.service';
import { adminSetupLink } from '../../../src/modules/identity/admin-accounts';
import { totpCode } from '../../../src/modules/identity/totp';
import { DEFAULT_ADMIN_TOKEN_TTL_DAYS } from '../../../src/shared/config';
import { graphql } from '../../support/admin-client';
import { ADMIN_PASSWORD, adminCookieOf, adminOperation } from '../../support/admin-session';
import { useBuiltService } from '../../support/built-service';
import { checkoutClient } from '../../support/checkout-client';
import { dashboard, sessionCookieOf, signUpSeller } from '../../support/dashboard-client';
import { startOtlpReceiver, type OtlpReceiver } from '../../support/otlp-receiver';
import { freePort } from '../../support/processes';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useSmtpSink } from '../../support/smtp-sink';
import { startReceiver, type Receiver } from '../../support/webhook-receiver';
import { FAST_WEBHOOKS } from '../../support/webhook-support';

/**
 * Traces as clean as the logs (docs/operations.md, "Tracing"). The built service runs with tracing on, exporting
 * to a collector in this process that keeps every string of every export (span names, attributes, events, status).
 * The file runs the flows that make secrets: sign-up, e-mail verification, password reset, admin set-up (link,
 * password, TOTP, recovery codes) and sign-in, API keys and admin tokens, webhook URL and secret, payout account, a
 * card payment with its webhook and receipt, a refund with its tracking link opened (also in capitals). Then no
 * secret the run made, nor any hash or e-mail address the database holds, is in any exported string; database
 * spans hold statements with placeholders only.
 */
jest.setTimeout(180_000);

const smtp = useSmtpSink();
const built = useBuiltService('trace_secrets', { WEBHOOK_WORKERS_IN_SERVICE: '0', MAIL_WORKERS_IN_SERVICE: '0', REFUND_SWEEP_INTERVAL_MS: '3600000' });
const STATEMENT_KEY = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const BASE_URL = 'https://pay.example.test';
let collector: OtlpReceiver;
let webhooks: Receiver;
let url: string;
/** Every secret the flows made, by what it is. */
const secrets: Record<string, string> = {};

beforeAll(async () => {
  collector = await startOtlpReceiver();
  webhooks = await startReceiver();
  url = await built.start(await freePort(), {
    ...FAST_WEBHOOKS,
    BASE_URL,
    STATEMENT_SIGNING_KEY: STATEMENT_KEY,
    SMTP_URL: smtp.url,
    SIMULATED_REFUND_DELAY_MS: '20',
    REFUND_SWEEP_INTERVAL_MS: '100',
    AUTH_FAILURES_PER_MINUTE: '100000',
    ACCOUNT_ATTEMPTS_PER_CLIENT: '100000',
    CHECKOUT_DECLINES_PER_CLIENT: '100000',
    CHECKOUT_DECLINES_PER_SHOP: '100000',
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
  });
});

afterAll(async () => {
  await webhooks?.close();
  await collector?.close().catch(() => undefined);
});

/** The token of the link in the newest mail to `to` whose link has `path`. */
async function linkToken(to: string, path: RegExp): Promise<string> {
  const [mail] = (await smtp.waitFor((m) => m.envelopeTo.includes(to) && path.test(String(m.parsed.text)), 1)).slice(-1);
  const link = String(mail.parsed.text).match(new RegExp(`${BASE_URL.replace(/\./g, '\\.')}\\S+`, 'g'))!.find((l) => path.test(l))!;
  const parsed = new URL(link);
  return parsed.searchParams.get('token') ?? parsed.pathname.split('/').at(-1)!;
}

const ok = (answer: request.Response) => {
  if (answer.body.errors) throw new Error(JSON.stringify(answer.body.errors));
  return answer.body.data;
};

async function runFlows(): Promise<void> {
  // A seller: sign-up, e-mail verification (the link opened, then used), a password reset, a new sign-in.
  const seller = await signUpSeller(url);
  Object.assign(secrets, { sellerEmail: seller.email, sellerPassword: seller.password, apiKey: seller.apiKey, sessionCookie: seller.session.cookie.split('=')[1], csrf: seller.session.csrfToken });
  secrets.verifyToken = await linkToken(seller.email, /verify-email/);
  await request(url).get(`/dashboard/verify-email?token=${secrets.verifyToken}`);
  ok(await dashboard(url, 'VerifyEmail', { token: secrets.verifyToken }, seller.session));
  ok(await dashboard(url, 'RequestPasswordReset', { email: seller.email }));
  secrets.resetToken = await linkToken(seller.email, /reset-password/);
  await request(url).get(`/dashboard/reset-password?token=${secrets.resetToken}`);
  secrets.newPassword = `reset-${randomBytes(8).toString('hex')}`;
  ok(await dashboard(url, 'ResetPassword', { token: secrets.resetToken, password: secrets.newPassword }));
  const signIn = await dashboard(url, 'SignIn', { email: seller.email, password: secrets.newPassword });
  const session = { cookie: sessionCookieOf(signIn), csrfToken: ok(signIn).signIn.csrfToken as string };
  secrets.secondSession = session.cookie.split('=')[1];

  // Payout account, webhook URL (with a secret of its own in the query) and a rotated webhook secret.
  secrets.iban = 'DE89370400440532013000';
  ok(await dashboard(url, 'SetPayoutAccount', { holder: 'Harbour Books', accountNumber: secrets.iban, currentPassword: secrets.newPassword }, session));
  secrets.hookToken = `hook${randomBytes(8).toString('hex')}`;
  ok(await dashboard(url, 'SetWebhookUrl', { url: `${webhooks.url}?token=${secrets.hookToken}`, currentPassword: secrets.newPassword }, session));
  secrets.webhookSecret = ok(await dashboard(url, 'RotateWebhookSecret', { currentPassword: secrets.newPassword }, session)).rotateWebhookSecret;

  // A card payment by the API key: its webhook and receipt go out.
  secrets.customerEmail = `buyer-${randomBytes(4).toString('hex')}@example.com`;
  secrets.customerName = `Zed ${randomBytes(4).toString('hex')}`;
  secrets.card = '4242424242424242';
  const created = await sellerClient(url, seller.apiKey).create({ ...VALID_PAYMENT, amount: 5000, customer_email: secrets.customerEmail, customer_name: secrets.customerName });
  const paymentId = created.body.data.id as string;
  expect(ok(await checkoutClient(url).pay(paymentId, secrets.card)).submitCard.status).toBe('COMPLETED');
  await webhooks.waitFor(1);
  await smtp.waitFor((m) => m.envelopeTo.includes(secrets.customerEmail), 1);

  // Admins as the CLI makes them: a token each, a set-up link opened and followed, a sign-in with a code.
  const admins: Record<string, string> = {};
  for (const role of [AdminRole.SUPPORT, AdminRole.FINANCE]) {
    const email = `${role}-${randomBytes(4).toString('hex')}@payments.example`;
    const { admin, token } = await createAdmin(built.inspector.em(), { email, role, tokenTtlDays: DEFAULT_ADMIN_TOKEN_TTL_DAYS });
    admins[role] = token;
    secrets[`${role}Token`] = token;
    secrets[`${role}Email`] = email;
    const setup = new URL(await adminSetupLink(built.inspector.em(), admin.id, BASE_URL)).searchParams.get('setup')!;
    secrets[`${role}SetupToken`] = setup;
    await request(url).get(`/admin?setup=${setup}`);
    const totp = ok(await adminOperation(url, 'AdminSetUp', { token: setup, password: ADMIN_PASSWORD })).adminSetUp.secret as string;
    secrets[`${role}Totp`] = totp;
    const codes = ok(await adminOperation(url, 'ConfirmAdminSetUp', { token: setup, code: totpCode(totp) })).confirmAdminSetUp as string[];
    codes.forEach((code, i) => (secrets[`${role}RecoveryCode${i}`] = code));
    const signedIn = await adminOperation(url, 'AdminSignIn', { email, password: ADMIN_PASSWORD, code: totpCode(totp, Date.now() + 30_000) });
    secrets[`${role}AdminSession`] = adminCookieOf(signedIn).split('=')[1];
  }
  secrets.adminPassword = ADMIN_PASSWORD;

  // A refund, requested and approved by token; the customer's tracking link opened as mailed and in capitals.
  const asked = await graphql(url, `Bearer ${admins.support}`, 'mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "damaged", amount: 1000) { id } }', { p: paymentId });
  expect(asked.errors).toBeUndefined();
  const approved = await graphql(url, `Bearer ${admins.finance}`, 'mutation ($id: ID!) { approveRefund(id: $id) { id } }', { id: asked.data.requestRefund.id });
  expect(approved.errors).toBeUndefined();
  secrets.refundToken = await linkToken(secrets.customerEmail, /\/refunds\//);
  expect((await request(url).get(`/refunds/${secrets.refundToken}`)).status).toBe(200);
  await request(url).get(`/REFUNDS/${secrets.refundToken}`);
  await request(url).get(`/Refunds/${secrets.refundToken}?x=1`);
}

test('no span carries a secret the run made, a hash or an address the database holds; SQL has placeholders only', async () => {
  await runFlows();
  // Everything the database holds that is a hash, a sealed secret, a token or an e-mail address.
  const columns: { table_name: string; column_name: string }[] = await built.inspector.em().getConnection().execute(
    `select table_name, column_name from information_schema.columns where table_schema = current_schema() and data_type in ('text', 'character varying') and column_name ~ '(hash|secret|token|sealed|email|account_number|password|recipient)'`,
  );
  const stored: string[] = [];
  for (const { table_name, column_name } of columns) {
    const rows: { v: string | null }[] = await built.inspector.em().getConnection().execute(`select "${column_name}" as v from "${table_name}" where "${column_name}" is not null`);
    stored.push(...rows.map((r) => r.v!).filter((v) => v.length >= 8));
  }
  expect(stored.length).toBeGreaterThan(20);

  // The flows were traced: the set-up link's request, SQL, Redis, GraphQL and the webhook's POST.
  await collector.waitFor((spans) => (spans.some((s) => s.name === 'webhook.deliver') && spans.some((s) => s.name === 'mail.send') ? true : undefined));
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const spans = collector.spans;
  const scopes = new Set(spans.map((s) => s.scope));
  for (const scope of ['@opentelemetry/instrumentation-http', '@opentelemetry/instrumentation-pg', '@opentelemetry/instrumentation-ioredis', '@opentelemetry/instrumentation-graphql']) expect(scopes).toContain(scope);
  expect(spans.some((s) => s.attributes['http.target'] === '/admin' || s.attributes['url.path'] === '/admin')).toBe(true);

  const found: string[] = [];
  const all = Object.entries(secrets).map(([what, value]) => [what, value] as const).concat(stored.map((value) => ['stored value', value] as const));
  for (const [what, value] of all) {
    const where = collector.strings.find((s) => s.includes(value));
    if (where) found.push(`${what} ${value} in: ${where.slice(0, 300)}`);
  }
  expect(found).toEqual([]);

  const statements = spans.filter((s) => s.scope === '@opentelemetry/instrumentation-pg').map((s) => String(s.attributes['db.statement'] ?? s.attributes['db.query.text'] ?? ''));
  expect(statements.filter(Boolean).length).toBeGreaterThan(50);
  expect(statements.filter((sql) => /'/.test(sql))).toEqual([]);
  expect(collector.strings.filter((s) => /[?&](token|setup)=/i.test(s))).toEqual([]);
});
