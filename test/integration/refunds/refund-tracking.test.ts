import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { NOTIFICATION_TOPICS } from '../../../src/modules/notifications/mail-kinds';
import { setMailSettings } from '../../../src/modules/notifications/mail-settings';
import { reverseRefund } from '../../../src/modules/refunds/refund.service';
import { trackingTokenHash } from '../../../src/modules/refunds/refund-tracking-token';
import { adminClient, type AdminClient } from '../../support/admin-client';
import { checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useSmtpSink } from '../../support/smtp-sink';
import { startTestService, useTestService, type TestService } from '../../support/test-service';

/**
 * The customer's refund tracking page (`/refunds/<token>`, docs/integrate.md) over HTTP, as an attacker probes it:
 * the link comes only in the customer's mails, only its hash is stored, every answer is kept out of caches and
 * search engines, and a wrong, malformed or expired link gets the very same 404 page. Real SMTP server on loopback.
 */
jest.setTimeout(60_000);

const smtp = useSmtpSink();
const service = useTestService(() => ({ SMTP_URL: smtp.url, MAIL_POLL_INTERVAL_MS: '100', REFUND_PAGE_VIEWS_PER_CLIENT: '100000' }));
let support: AdminClient;
let finance: AdminClient;
let shop: Awaited<ReturnType<TestService['createShop']>>;
beforeAll(async () => {
  support = await adminClient(service, AdminRole.SUPPORT);
  finance = await adminClient(service, AdminRole.FINANCE);
  shop = await service.createShop({ shopName: 'Corner Bakery' });
  await setMailSettings(service.em(), shop.seller.id, 'help@cornerbakery.example', NOTIFICATION_TOPICS);
});

const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) => service.em().execute<T[]>(query, params);
let customers = 0;

/** A paid payment with a customer address and things the page must never show (metadata, the customer's name). */
async function paidPayment(apiKey = shop.apiKey): Promise<{ paymentId: string; customer: string }> {
  const customer = `ann-${++customers}-${Date.now()}@example.com`;
  const created = await sellerClient(service.url, apiKey).create({ ...VALID_PAYMENT, amount: 4250, customer_email: customer, customer_name: 'Ann Example', metadata: { order: 'ORDER-SECRET-42' } });
  expect((await checkoutClient(service.url).pay(created.body.data.id, '4242424242424242')).body.data.submitCard.status).toBe('COMPLETED');
  return { paymentId: created.body.data.id, customer };
}

async function requestRefund(paymentId: string, amount = 1250): Promise<string> {
  return (await support.ok(`mutation ($p: ID!, $a: SafeInt) { requestRefund(paymentId: $p, reason: "customer asked", amount: $a) { id } }`, { p: paymentId, a: amount })).requestRefund.id;
}

/** The tracking link of the customer's mail whose subject matches, as the customer reads it (text part). */
async function linkIn(customer: string, subject: RegExp): Promise<URL> {
  const [mail] = await smtp.waitFor((m) => m.envelopeTo.includes(customer) && subject.test(m.parsed.subject ?? ''));
  const links = [...(mail.parsed.text ?? '').matchAll(/https?:\/\/\S+/g)].map((m) => new URL(m[0]));
  const tracking = links.filter((link) => link.pathname.startsWith('/refunds/'));
  expect(tracking).toHaveLength(1);
  expect(mail.parsed.html).toContain(`href="${tracking[0].href}"`);
  return tracking[0];
}

const page = (path: string) => request(service.url).get(path);
const tokenOf = (link: URL) => link.pathname.slice('/refunds/'.length);
/** Another token of the right shape that names nothing. */
const randomToken = () => randomBytes(32).toString('base64url');

function expectPrivateHeaders(res: request.Response) {
  expect(res.headers['x-robots-tag']).toMatch(/noindex/);
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
  expect(res.headers['content-security-policy']).not.toMatch(/script-src|unsafe-inline/);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.text).toContain('<meta name="robots" content="noindex, nofollow">');
}

describe('the link', () => {
  let paymentId: string;
  let customer: string;
  let refundId: string;
  let link: URL;
  beforeAll(async () => {
    ({ paymentId, customer } = await paidPayment());
    refundId = await requestRefund(paymentId);
    link = await linkIn(customer, /^Corner Bakery asked to refund your payment$/);
  });

  test('comes in the request mail, on the public base URL, 256 bits long; the refund keeps only its SHA-256', async () => {
    expect(link.origin).toBe('https://pay.example.test');
    expect(tokenOf(link)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await sql<Record<string, unknown>>(`select * from "refunds" where "id" = ?`, [refundId]);
    expect(row.tracking_token_hash).toBe(trackingTokenHash(tokenOf(link)));
    expect(JSON.stringify(row)).not.toContain(tokenOf(link));
  });

  test('shows the stages, the amount and the shop\'s support address, with the private headers', async () => {
    const res = await page(link.pathname);
    expect(res.status).toBe(200);
    expectPrivateHeaders(res);
    expect(res.text).toContain('Refund from</span> Corner Bakery');
    expect(res.text).toContain('$12.50 <span class="currency">USD</span>');
    expect(res.text).toContain('mailto:help@cornerbakery.example');
    expect(res.text).toMatch(/<li class="stage reached" aria-current="step"><span class="stage-label">Refund requested<\/span><span class="stage-when"><time datetime="\d{4}-/);
    expect(res.text).toContain('usually within 24 hours');
  });

  test('shows nothing else: no payment or refund id, card, customer, metadata, seller or shop secrets', async () => {
    const [secrets] = await sql<{ seller_id: string; shop_id: string; email: string }>(
      `select sh."seller_id", sh."id" as shop_id, se."email" from "shops" sh join "sellers" se on se."id" = sh."seller_id" where sh."id" = ?`,
      [shop.shop.id],
    );
    const res = await page(link.pathname);
    // What the customer sees: the page's body (the head's style sheet name and style hash are ours, not data).
    const body = res.text.slice(res.text.indexOf('<body>'));
    for (const hidden of [paymentId, refundId, '4242', 'Visa', customer, 'Ann Example', 'ORDER-SECRET-42', shop.apiKey, shop.webhookSecret, secrets.seller_id, secrets.shop_id, secrets.email, 'customer asked']) {
      expect(body).not.toContain(hidden);
    }
  });

  test('the refund notice carries the same link once the refund is carried out, which then shows the bank reference', async () => {
    await finance.ok(`mutation ($id: ID!) { approveRefund(id: $id) { id } }`, { id: refundId });
    const notice = await linkIn(customer, /^Your refund from Corner Bakery$/);
    expect(notice.href).toBe(link.href);
    const res = await page(link.pathname);
    const [{ processor_reference: reference }] = await sql<{ processor_reference: string }>(`select "processor_reference" from "refunds" where "id" = ?`, [refundId]);
    expect(res.text).toContain(`Bank reference: ${reference}`);
    expect(res.text).toMatch(/aria-current="step"><span class="stage-label">Refunded<\/span>/);
    expect(res.text).toContain('5 to 10 business days');
  });

  test('the link never reaches the log: the request line shows the route, not the token', async () => {
    await page(link.pathname);
    const lines = service.logs.filter((line) => line.msg === 'request' && String(line.path).startsWith('/refunds'));
    expect(lines.length).toBeGreaterThan(0);
    expect(new Set(lines.map((line) => line.path))).toEqual(new Set(['/refunds/:token']));
    expect(JSON.stringify(service.logs)).not.toContain(tokenOf(link));
  });

  test('a reversal shows as a last stage', async () => {
    expect(await reverseRefund(service.em(), service.services.refunds, refundId, { amount: 1250, currency: 'USD' })).toEqual({ effect: 'moved' });
    const res = await page(link.pathname);
    expect(res.text).toMatch(/aria-current="step"><span class="stage-label">Sent back by your bank<\/span><span class="stage-when"><time/);
  });
});

describe('a wrong, malformed or expired link', () => {
  let expired: string;
  let stillValid: string;
  beforeAll(async () => {
    // Two refunds rejected long ago: one just inside the 180 days after its last stage, one just past them.
    const ask = async (days: number) => {
      const { paymentId, customer } = await paidPayment();
      const refundId = await requestRefund(paymentId, 1000);
      const link = await linkIn(customer, /asked to refund your payment/);
      await finance.ok(`mutation ($id: ID!) { rejectRefund(id: $id, reason: "not eligible") { id } }`, { id: refundId });
      await sql(`update "refunds" set "created_at" = now() - make_interval(days => ?), "reviewed_at" = now() - make_interval(days => ?) where "id" = ?`, [days + 1, days, refundId]);
      return link.pathname;
    };
    stillValid = await ask(179);
    expired = await ask(181);
  });

  test('a link works until 180 days after the refund is over', async () => {
    const res = await page(stillValid);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/<span class="stage-label">Refund not approved<\/span>/);
    expect(res.text).toMatch(/It works until <time datetime="\d{4}-/);
  });

  test('all get the same 404 page, byte for byte, with the same headers', async () => {
    const probes = [
      expired,
      `/refunds/${randomToken()}`,
      '/refunds/abc',
      `/refunds/${'A'.repeat(42)}!`,
      `/refunds/${'A'.repeat(44)}`,
      `/refunds/${tokenOf(new URL(`https://x${stillValid}`)).toLowerCase()}`,
      '/refunds/',
      '/refunds',
      `${stillValid}/more`,
      '/refunds/%zz',
      `/refunds/${encodeURIComponent("' or 1=1 --")}`,
    ];
    const answers = await Promise.all(probes.map((path) => page(path).buffer(true)));
    const first = answers[0];
    expect(first.status).toBe(404);
    expectPrivateHeaders(first);
    expect(first.text).toContain('Refund not found');
    const headersOf = (res: request.Response) => Object.fromEntries(Object.entries(res.headers).filter(([name]) => !['date', 'x-request-id', 'traceparent'].includes(name)));
    for (const [i, res] of answers.entries()) {
      expect({ probe: probes[i], status: res.status }).toEqual({ probe: probes[i], status: 404 });
      expect(Buffer.compare(Buffer.from(res.text), Buffer.from(first.text))).toBe(0);
      expect(headersOf(res)).toEqual(headersOf(first));
    }
  });

  test('a wrong link answers in the browser\'s language, each language the same every time', async () => {
    const inLanguage = (language: string) => page(`/refunds/${randomToken()}`).set('Accept-Language', language);
    const [german, french, germanAgain] = [await inLanguage('de'), await inLanguage('fr-CA,fr;q=0.9'), await inLanguage('de-AT')];
    expect(german.status).toBe(404);
    expect(german.text).toContain('<html lang="de"');
    expect(german.text).toContain('Erstattung nicht gefunden');
    expect(french.text).toContain('Remboursement introuvable');
    expect(germanAgain.text).toBe(german.text);
    expect((await page(`/refunds/${randomToken()}`).set('Accept-Language', 'xx')).text).toContain('Refund not found');
  });
});

test('hostile shop names are text, never markup', async () => {
  const hostile = await service.createShop({ shopName: '<script>alert(1)</script><img src=x onerror=alert(2)>' });
  const { paymentId, customer } = await paidPayment(hostile.apiKey);
  await requestRefund(paymentId);
  const link = await linkIn(customer, /asked to refund your payment/);
  const res = await page(link.pathname);
  expect(res.status).toBe(200);
  expect(res.text).not.toMatch(/<script|<img/);
  expect(res.text).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
});

test('past REFUND_PAGE_VIEWS_PER_CLIENT a client gets 429, even with a right link, so guessing cannot go on', async () => {
  // Its mail relay shares the database: without the sink it would claim the customer's mail and keep it unsent.
  const limited = await startTestService({ SMTP_URL: smtp.url, REFUND_PAGE_VIEWS_PER_CLIENT: '3' });
  try {
    const { paymentId, customer } = await paidPayment();
    await requestRefund(paymentId);
    const link = await linkIn(customer, /asked to refund your payment/);
    const at = (path: string) => request(limited.url).get(path);
    expect((await at(link.pathname)).status).toBe(200);
    expect((await at(`/refunds/${randomToken()}`)).status).toBe(404);
    expect((await at(`/refunds/${randomToken()}`)).status).toBe(404);
    const refused = await at(link.pathname);
    expect(refused.status).toBe(429);
    expectPrivateHeaders(refused);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.text).not.toContain('Corner Bakery');
  } finally {
    await limited.stop();
  }
});
