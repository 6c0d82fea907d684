import request from 'supertest';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { applyDisputeNotice } from '../../../src/modules/disputes/dispute.service';
import { SELLER_NOTICES } from '../../../src/modules/notifications/mail-kinds';
import { adminClient, eventually, givePayoutAccount, type AdminClient } from '../../support/admin-client';
import { checkoutClient } from '../../support/checkout-client';
import { dashboard, newEmail, sessionCookieOf, signUpSeller, STRONG_PASSWORD, type DashboardSession } from '../../support/dashboard-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useSmtpSink, type SunkMail } from '../../support/smtp-sink';
import { useTestService } from '../../support/test-service';

/**
 * Seller notifications (docs/dashboard.md, "Mail: receipts and notifications"), each written in the transaction of
 * the event that causes it and switchable on the Account screen (all on by default): disputes opened or decided,
 * refund requests approved, rejected or failed, withdrawals paid or rejected, a sign-in from a browser not seen
 * before, payout account, webhook URL and webhook secret changes, and webhooks failing for more than a day. And the
 * customer's refund notice. A real SMTP server on loopback; every mail parsed with mailparser.
 */
jest.setTimeout(60_000);

const smtp = useSmtpSink();
const service = useTestService(() => ({
  SMTP_URL: smtp.url, MAIL_POLL_INTERVAL_MS: '100', MAIL_RETRY_BASE_DELAY_MS: '100', WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1', RATE_LIMIT_PER_MINUTE: '100000',
}));
let support: AdminClient;
let finance: AdminClient;
beforeAll(async () => {
  support = await adminClient(service, AdminRole.SUPPORT);
  finance = await adminClient(service, AdminRole.FINANCE);
});

const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) => service.em().execute<T[]>(query, params);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ALL_TOPICS = ['DISPUTES', 'REFUNDS', 'WITHDRAWALS', 'NEW_SIGN_IN', 'ACCOUNT_CHANGES', 'WEBHOOK_FAILURES'];

interface Seller {
  email: string;
  sellerId: string;
  shopId: string;
  apiKey: string;
  session: DashboardSession;
}

async function newSeller(enabledTopics = ALL_TOPICS): Promise<Seller> {
  const seller = await signUpSeller(service.url);
  // Verified from the link of the verification mail, as a seller does before a first withdrawal.
  const [verification] = await smtp.waitFor((m) => m.envelopeTo.includes(seller.email) && /Verify your email/.test(m.parsed.subject ?? ''));
  const token = new URL((verification.parsed.text ?? '').match(/https:\/\/\S+verify-email\S+/)![0]).searchParams.get('token');
  expect((await dashboard(service.url, 'VerifyEmail', { token }, seller.session)).body.errors).toBeUndefined();
  if (enabledTopics !== ALL_TOPICS) {
    const set = await dashboard(service.url, 'SetMailSettings', { supportEmail: null, enabledTopics }, seller.session);
    expect(set.body.errors).toBeUndefined();
  }
  return seller;
}

async function paidPayment(seller: Seller, fields: Record<string, unknown> = {}, amount = 20_000): Promise<string> {
  const created = await sellerClient(service.url, seller.apiKey).create({ ...VALID_PAYMENT, amount, ...fields });
  const paid = await checkoutClient(service.url).pay(created.body.data.id, '4242424242424242');
  expect(paid.body.data.submitCard.status).toBe('COMPLETED');
  return created.body.data.id;
}

/** The next mail of `kind` to the seller (by subject), waited for. */
const mailTo = async (address: string, subject: RegExp): Promise<SunkMail> => (await smtp.waitFor((m) => m.envelopeTo.includes(address) && subject.test(m.parsed.subject ?? '')))[0];
const NOTICE_KINDS = Object.keys(SELLER_NOTICES);
/** The notification rows written for a seller, by kind (not its account mails): a notification switched off has none. */
const noticesOf = async (sellerId: string) =>
  (await sql<{ kind: string }>(`select "kind" from "mail_outbox" where "seller_id" = ? and "kind" in (${NOTICE_KINDS.map(() => '?').join(', ')}) order by "created_at"`, [sellerId, ...NOTICE_KINDS])).map((r) => r.kind);

/** No link that signs anyone in, no secret: links only to the dashboard's own pages, without a token. */
function expectHarmless(mail: SunkMail) {
  const links = [...(mail.parsed.text ?? '').matchAll(/https?:\/\/\S+/g)].map((m) => new URL(m[0]));
  for (const link of links) {
    expect(link.origin).toBe('https://pay.example.test');
    expect(link.pathname.startsWith('/dashboard/')).toBe(true);
    expect([...link.searchParams.keys()]).toEqual([]);
  }
  expect(mail.raw).not.toMatch(/whsec_|svc_live_|token=|setup=/);
  expect(mail.parsed.from?.value).toEqual([{ name: 'Payments', address: 'no-reply@pay.example.test' }]);
  expect(mail.parsed.text).toContain('Switch these notifications off on the Account screen');
}

async function refundOf(paymentId: string): Promise<string> {
  return (await support.ok(`mutation ($p: ID!) { requestRefund(paymentId: $p, reason: "customer asked") { id } }`, { p: paymentId })).requestRefund.id;
}

async function dispute(paymentId: string, step: 'open' | 'chargeBack' | 'lose' | 'win' | 'close', amount = 20_000) {
  return applyDisputeNotice(service.em(), { step, paymentId, reference: `DP-${paymentId}`, amount, currency: 'USD', reason: 'Fraudulent' });
}

describe('each notification arrives when its topic is on (the default)', () => {
  let seller: Seller;
  beforeAll(async () => {
    seller = await newSeller();
  });

  test('a dispute opened, then decided (lost, later won): three mails, each once', async () => {
    const paymentId = await paidPayment(seller);
    expect(await dispute(paymentId, 'open')).toEqual({ effect: 'opened' });
    const opened = await mailTo(seller.email, /disputed a payment/);
    expect(opened.parsed.text).toContain(paymentId);
    expect(opened.parsed.text).toContain('$200.00');
    expect(opened.parsed.text).toContain('Fraudulent');
    expectHarmless(opened);
    expect(await dispute(paymentId, 'chargeBack')).toEqual({ effect: 'moved' });
    expect(await dispute(paymentId, 'lose')).toEqual({ effect: 'moved' });
    const lost = await mailTo(seller.email, /dispute was lost/);
    expect(lost.parsed.text).toContain(paymentId);
    expect(await dispute(paymentId, 'win')).toEqual({ effect: 'moved' });
    const won = await mailTo(seller.email, /decided in your favour/);
    expect(won.parsed.text).toContain('back in your balance');
    // The same notice again moves nothing and mails nothing.
    expect(await dispute(paymentId, 'win')).toEqual({ effect: 'nothing-to-do' });
    await sleep(300);
    expect(smtp.to(seller.email, /dispute|disputed/i)).toHaveLength(3);
  });

  test('a refund request approved, then carried out: the seller is told, and the customer gets the refund notice', async () => {
    const customer = newEmail();
    const paymentId = await paidPayment(seller, { customer_email: customer, customer_name: 'Ann Example' });
    const refundId = await refundOf(paymentId);
    await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: refundId });
    const approved = await mailTo(seller.email, /refund was approved/);
    expect(approved.parsed.text).toContain(paymentId);
    expect(approved.parsed.text).toContain('$200.00');
    expectHarmless(approved);

    const notice = await mailTo(customer, /^Your refund from/);
    expect(notice.envelopeTo).toEqual([customer]);
    expect(notice.parsed.subject).toBe('Your refund from Dashboard Shop');
    expect(notice.parsed.from?.value).toEqual([{ name: 'Dashboard Shop via Payments', address: 'no-reply@pay.example.test' }]);
    expect(notice.parsed.replyTo?.value).toEqual([{ name: '', address: seller.email }]);
    for (const part of [notice.parsed.text!, notice.parsed.html as string]) {
      expect(part).toContain('$200.00');
      expect(part).toContain('Visa ending in 4242');
      expect(part).toContain('5 to 10 business days');
      expect(part).toContain(paymentId);
      expect(part).toContain(refundId);
    }
    expect(notice.parsed.text).toMatch(/Original payment: \$200\.00 on \d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d UTC/);
    expect(notice.raw).not.toContain('4242424242424242');
    expect((await sql(`select "kind" from "mail_outbox" where "payment_id" = ? order by "kind"`, [paymentId])).map((r) => r.kind)).toEqual(['receipt', 'refund-approved', 'refund-notice', 'refund-requested']);
  });

  test('a refund request rejected, with the reason', async () => {
    const paymentId = await paidPayment(seller);
    const refundId = await refundOf(paymentId);
    await finance.ok(`mutation ($id: ID!) { rejectRefund(id: $id, reason: "the goods were used") { id } }`, { id: refundId });
    const rejected = await mailTo(seller.email, /refund request was rejected/);
    expect(rejected.parsed.text).toContain('Reason: the goods were used');
    expectHarmless(rejected);
  });

  test('a refund the card refuses: the seller is told it failed, the customer gets no refund notice (only the request, with its tracking link)', async () => {
    const customer = newEmail();
    const paymentId = await paidPayment(seller, { customer_email: customer });
    // An authorization the acquirer does not know: it declines the refund (unknown_authorization).
    await sql(`update "payments" set "processor_reference" = 'elsewhere_1' where "id" = ?`, [paymentId]);
    const refundId = await refundOf(paymentId);
    await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: refundId });
    const failed = await mailTo(seller.email, /refund failed/);
    expect(failed.parsed.text).toContain('Reason: unknown_authorization');
    await sleep(300);
    expect(smtp.to(customer, /^Your refund from/)).toEqual([]);
    expect(smtp.to(customer, /asked to refund your payment/)).toHaveLength(1);
  });

  test('a withdrawal paid (with its reference) and one rejected (with the reason)', async () => {
    await paidPayment(seller, {}, 50_000);
    await givePayoutAccount(service, seller.sellerId);
    const ask = async () => (await support.ok(`mutation ($s: ID!) { requestWithdrawal(shopId: $s, amount: 1500) { id } }`, { s: seller.shopId })).requestWithdrawal.id as string;
    const paidOut = await ask();
    await finance.ok(`mutation ($id: ID!) { approveWithdrawal(id: $id) { id } }`, { id: paidOut });
    await finance.ok(`mutation ($id: ID!) { markWithdrawalPaid(id: $id, reference: "TRX-2026-0042") { id } }`, { id: paidOut });
    const paid = await mailTo(seller.email, /withdrawal was paid/);
    expect(paid.parsed.text).toContain('$15.00');
    expect(paid.parsed.text).toContain('TRX-2026-0042');
    expectHarmless(paid);
    const refused = await ask();
    await finance.ok(`mutation ($id: ID!) { rejectWithdrawal(id: $id, reason: "account under review") { id } }`, { id: refused });
    const rejected = await mailTo(seller.email, /withdrawal was rejected/);
    expect(rejected.parsed.text).toContain('account under review');
  });

  test('a sign-in from a browser not seen before, and none from a known one', async () => {
    const first = await dashboard(service.url, 'SignIn', { email: seller.email, password: STRONG_PASSWORD });
    expect(first.body.errors).toBeUndefined();
    const mail = await mailTo(seller.email, /New sign-in/);
    expectHarmless(mail);
    // The browser's known-device cookie from that sign-in: it is known now.
    const device = ([] as string[]).concat(first.headers['set-cookie'] ?? []).find((c) => /hcp_device=/.test(c))!.split(';')[0];
    const again = await request(service.url).post('/graphql').set('Content-Type', 'application/json').set('Cookie', device)
      .send({ query: (await import('../../support/dashboard-client')).DASHBOARD_DOCUMENT, operationName: 'SignIn', variables: { email: seller.email, password: STRONG_PASSWORD } });
    expect(again.body.errors).toBeUndefined();
    await sleep(500);
    expect(smtp.to(seller.email, /New sign-in/)).toHaveLength(1);
    // The User-Agent summary names the browser, never the session or the cookie.
    expect(mail.parsed.text).toMatch(/Browser: /);
    expect(mail.raw).not.toContain(sessionCookieOf(first).split('=')[1]);
  });

  test('payout account, webhook URL and webhook secret changes: told, without the number, the URL\'s path or the secret', async () => {
    const proof = { currentPassword: STRONG_PASSWORD };
    expect((await dashboard(service.url, 'SetPayoutAccount', { holder: 'Bakery Ltd', accountNumber: 'DE89370400440532013000', ...proof }, seller.session)).body.errors).toBeUndefined();
    const payout = await mailTo(seller.email, /payout account was changed/);
    expect(payout.parsed.text).toContain('•••• 3000');
    expect(payout.raw).not.toMatch(/370400440532013000|DE89/);
    expectHarmless(payout);

    expect((await dashboard(service.url, 'SetWebhookUrl', { url: 'http://127.0.0.1:9/hooks?token=sekrit-value', ...proof }, seller.session)).body.errors).toBeUndefined();
    const url = await mailTo(seller.email, /webhook URL/);
    expect(url.parsed.text).toContain('Webhook host: 127.0.0.1:9');
    expect(url.raw).not.toContain('sekrit-value');
    expectHarmless(url);

    const rotated = await dashboard(service.url, 'RotateWebhookSecret', proof, seller.session);
    const secret = rotated.body.data.rotateWebhookSecret.webhookSecret as string;
    const mail = await mailTo(seller.email, /webhook secret/);
    expect(mail.raw).not.toContain(secret);
    expect(mail.raw).not.toContain(secret.slice(6));
    expectHarmless(mail);
  });

  test('webhook deliveries failing for more than a day: one notification per outage, however often the sweep runs', async () => {
    const hooked = await newSeller();
    expect((await dashboard(service.url, 'SetWebhookUrl', { url: 'http://127.0.0.1:9/down', currentPassword: STRONG_PASSWORD }, hooked.session)).body.errors).toBeUndefined();
    const paymentId = await paidPayment(hooked);
    await eventually(async () => (await sql(`select 1 from "webhook_deliveries" where "payment_id" = ? and "attempt_count" > 0`, [paymentId])).length > 0, 10_000, 'a failed attempt');
    expect(await service.services.mail.sweep()).toBe(0);
    // A day has passed since the delivery was written, and nothing was delivered since.
    await sql(`update "webhook_deliveries" set "created_at" = now() - interval '25 hours' where "payment_id" = ?`, [paymentId]);
    expect(await service.services.mail.sweep()).toBe(1);
    expect(await service.services.mail.sweep()).toBe(0);
    const failing = await mailTo(hooked.email, /failing for more than a day/);
    expect(failing.parsed.text).toContain('Webhook host: 127.0.0.1:9');
    expect(failing.parsed.text).toMatch(/Deliveries not yet delivered: [1-9]/);
    expectHarmless(failing);
    await sleep(300);
    expect(smtp.to(hooked.email, /failing/)).toHaveLength(1);
  });
});

test('with every topic switched off, none of them arrives (and nothing is written), receipts still go to customers', async () => {
  const seller = await newSeller([]);
  const settings = await dashboard(service.url, 'Account', {}, seller.session);
  expect(settings.body.data.currentSeller.mailSettings.notifications.every((n: { enabled: boolean }) => !n.enabled)).toBe(true);
  const customer = newEmail();
  const paymentId = await paidPayment(seller, { customer_email: customer }, 50_000);
  await dispute(paymentId, 'open');
  const refundId = await refundOf(paymentId);
  await finance.ok(`mutation ($id: ID!) { rejectRefund(id: $id, reason: "no") { id } }`, { id: refundId });
  // A withdrawal needs the payout account: saving it is one of the switched-off notices too.
  await dashboard(service.url, 'SetPayoutAccount', { holder: 'Quiet Ltd', accountNumber: 'DE89370400440532013000', currentPassword: STRONG_PASSWORD }, seller.session);
  const wd = (await support.ok(`mutation ($s: ID!) { requestWithdrawal(shopId: $s, amount: 1500) { id } }`, { s: seller.shopId })).requestWithdrawal.id;
  await finance.ok(`mutation ($id: ID!) { rejectWithdrawal(id: $id, reason: "no") { id } }`, { id: wd });
  await dashboard(service.url, 'SignIn', { email: seller.email, password: STRONG_PASSWORD });
  await dashboard(service.url, 'SetWebhookUrl', { url: 'http://127.0.0.1:9/x', currentPassword: STRONG_PASSWORD }, seller.session);
  await dashboard(service.url, 'RotateWebhookSecret', { currentPassword: STRONG_PASSWORD }, seller.session);
  await mailTo(customer, /receipt/);
  await sleep(500);
  expect(await noticesOf(seller.sellerId)).toEqual([]);
  // Only the account mail of the sign-up (the verification link) went to the seller.
  expect(smtp.to(seller.email).map((m) => m.parsed.subject)).toEqual(['Verify your email address']);
});

test('one topic off, the others on: only that one stays away', async () => {
  const seller = await newSeller(ALL_TOPICS.filter((t) => t !== 'DISPUTES'));
  const paymentId = await paidPayment(seller);
  await dispute(paymentId, 'open');
  const refundId = await refundOf(paymentId);
  await finance.ok(`mutation ($id: ID!) { rejectRefund(id: $id, reason: "no") { id } }`, { id: refundId });
  await mailTo(seller.email, /refund request was rejected/);
  expect(await noticesOf(seller.sellerId)).toEqual(['refund-rejected']);
});

test('the Account screen reads the settings; a new support address is itself a notification', async () => {
  const seller = await newSeller();
  const before = (await dashboard(service.url, 'Account', {}, seller.session)).body.data.currentSeller.mailSettings;
  expect(before.supportEmail).toBe(seller.email);
  expect(before.supportEmailSet).toBe(false);
  expect(before.notifications.map((n: { topic: string; enabled: boolean }) => [n.topic, n.enabled])).toEqual(ALL_TOPICS.map((t) => [t, true]));
  const set = await dashboard(service.url, 'SetMailSettings', { supportEmail: ' help@shop.example ', enabledTopics: ALL_TOPICS }, seller.session);
  expect(set.body.data.setMailSettings).toMatchObject({ supportEmail: 'help@shop.example', supportEmailSet: true });
  const told = await mailTo(seller.email, /support address was changed/);
  expect(told.parsed.text).toContain('help@shop.example');
  // Back to the account's address with null.
  const reset = await dashboard(service.url, 'SetMailSettings', { supportEmail: null, enabledTopics: ALL_TOPICS }, seller.session);
  expect(reset.body.data.setMailSettings).toMatchObject({ supportEmail: seller.email, supportEmailSet: false });
  // An API key cannot change them: they belong to the signed-in seller.
  const byKey = await request(service.url).post('/graphql').set('Authorization', `Bearer ${seller.apiKey}`).set('Content-Type', 'application/json')
    .send({ query: 'mutation { setMailSettings(supportEmail: "x@y.example", enabledTopics: []) { supportEmail } }' });
  expect(byKey.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
});
