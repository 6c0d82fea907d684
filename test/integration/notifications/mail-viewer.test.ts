import request from 'supertest';
import { eventually } from '../../support/admin-client';
import { checkoutClient } from '../../support/checkout-client';
import { dashboard, signUpSeller } from '../../support/dashboard-client';
import { outboxMailsTo } from '../../support/mail-outbox';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useSmtpSink } from '../../support/smtp-sink';
import { useTestService, type TestService } from '../../support/test-service';

/**
 * The local mail viewer at /dev/mail (docs/operations.md, "Mail"): on a local service without SMTP_URL it shows every
 * mail, account mails' links working; it answers this machine only, by its own name; anywhere else it does not
 * exist. Mails carry text shops and customers chose, so the pages are read here for what a hostile name would do.
 */
/** BASE_URL unset, as `npm start` runs: this machine on the port bound, a local service. */
const LOCAL = { BASE_URL: undefined as unknown as string, SMTP_URL: '', ACCOUNT_SECRETS_KEY: '7e'.repeat(32), MAIL_POLL_INTERVAL_MS: '100' };

const get = (service: TestService, path: string, host = `localhost:${new URL(service.url).port}`) => request(service.url).get(path).set('Host', host);
const keptMailTo = async (service: TestService, email: string, kind: string) =>
  (await eventually(async () => (await outboxMailsTo(service, email)).find((m) => m.kind === kind && m.status === 'kept'), 10_000, `the ${kind} mail to be kept`))!;
/** The 404 of a path nothing serves: what the viewer answers wherever it is not to be. */
const unknownPath = async (service: TestService) => {
  const res = await get(service, '/dev/nothing-here');
  return { status: res.status, type: res.headers['content-type'], body: res.body };
};

describe('a local service without SMTP_URL', () => {
  const service = useTestService(LOCAL);

  test('lists every mail newest first; a verification mail shows its link, which verifies the address', async () => {
    const seller = await signUpSeller(service.url);
    const { id } = await keptMailTo(service, seller.email, 'email-verification');

    const list = await get(service, '/dev/mail');
    expect(list.status).toBe(200);
    expect(list.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(list.headers['cache-control']).toBe('no-store');
    expect(list.headers['x-frame-options']).toBe('DENY');
    expect(list.headers['referrer-policy']).toBe('no-referrer');
    const csp = String(list.headers['content-security-policy']);
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);
    // No script and no inline style attribute or handler in any tag: the policy above allows neither. (Text may say
    // "onerror=": other suites' mails in this database carry hostile shop names, escaped.)
    expect(list.text).not.toMatch(/<script|<[^>]*\s(?:style|on[a-z]+)=/i);
    const items = list.text.match(/<li>.*<\/li>/g)!;
    expect(items[0]).toContain(`href="/dev/mail/${id}"`);
    expect(items[0]).toContain(seller.email);
    expect(items[0]).toContain('Verify your email address');

    const shown = await get(service, `/dev/mail/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.headers['content-security-policy']).toBe(csp);
    const link = shown.text.match(/<a href="(http:\/\/localhost:\d+\/dashboard\/verify-email\?token=[A-Za-z0-9_-]+)">/)![1];
    expect(new URL(link).origin).toBe(`http://localhost:${new URL(service.url).port}`);
    const verified = await dashboard(service.url, 'VerifyEmail', { token: new URL(link).searchParams.get('token') }, seller.session);
    expect(verified.body.data.verifyEmail.emailVerifiedAt).toEqual(expect.any(String));

    // The HTML part, as its own sandboxed document: no script could run, nothing is fetched.
    const html = await get(service, `/dev/mail/${id}/html`);
    expect(html.status).toBe(200);
    expect(html.headers['content-security-policy']).toBe("sandbox; default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    expect(html.text).toContain('verify-email?token=');
  });

  test("a shop's and a customer's hostile names are shown as text: no markup, no script, no link elsewhere", async () => {
    const shopName = '<script>alert(1)</script> https://evil.example/login "><img src=x onerror=alert(2)>';
    const shop = await service.createShop({ shopName });
    const customer = `hostile-${Date.now()}@example.com`;
    const created = await sellerClient(service.url, shop.apiKey).create({ ...VALID_PAYMENT, customer_email: customer, customer_name: '<img src=x onerror=alert(3)> Mallory' });
    await checkoutClient(service.url).pay(created.body.data.id, '4242424242424242');
    const { id } = await keptMailTo(service, customer, 'receipt');

    for (const path of ['/dev/mail', `/dev/mail/${id}`]) {
      const page = await get(service, path);
      expect(page.status).toBe(200);
      // The names arrive as text: their markup escaped, their quotes too (no attribute to break out of), no link made.
      expect(page.text).not.toMatch(/<script|<img|href="https:\/\/evil/i);
      expect(page.text).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    }
    expect((await get(service, `/dev/mail/${id}`)).text).toContain('&#60;img src=x onerror=alert(3)&#62; Mallory');
  });

  test('another name in Host (DNS rebinding), a proxy relaying someone, a bad or unknown id: nothing shown', async () => {
    const seller = await signUpSeller(service.url);
    const { id } = await keptMailTo(service, seller.email, 'email-verification');
    const notFound = await unknownPath(service);
    expect(notFound.status).toBe(404);
    for (const res of [
      await get(service, '/dev/mail', 'evil.example'),
      await get(service, `/dev/mail/${id}`, `localhost.evil.example:${new URL(service.url).port}`),
      await get(service, `/dev/mail/${id}`).set('X-Forwarded-For', '203.0.113.9'),
      await get(service, `/dev/mail/${id}/html`).set('Forwarded', 'for=203.0.113.9'),
    ]) {
      expect({ status: res.status, type: res.headers['content-type'], body: res.body }).toEqual(notFound);
      expect(res.text).not.toContain(seller.email);
    }
    for (const path of ['/dev/mail/mail_doesnotexist', '/dev/mail/..%2Fetc', `/dev/mail/${id}'%3E/html`]) {
      const res = await get(service, path);
      expect(res.status).toBe(404);
      expect(res.text).not.toContain(seller.email);
    }
    // Only reads: nothing is posted to it.
    expect((await get(service, '/dev/mail').set('Host', 'localhost')).status).toBe(200);
    expect((await request(service.url).post('/dev/mail').set('Host', 'localhost').send({})).status).toBe(404);
  });
});

describe('a service others reach (BASE_URL not local), without SMTP_URL', () => {
  const service = useTestService({ SMTP_URL: '', MAIL_POLL_INTERVAL_MS: '100' });

  test('has no viewer: 404 as any unknown path, mails kept all the same', async () => {
    const seller = await signUpSeller(service.url);
    await keptMailTo(service, seller.email, 'email-verification');
    for (const path of ['/dev/mail', '/dev/mail/anything']) {
      const res = await get(service, path);
      expect({ status: res.status, type: res.headers['content-type'], body: res.body }).toEqual(await unknownPath(service));
    }
    expect(service.logs.some((l) => String(l.msg).includes('/dev/mail'))).toBe(false);
  });
});

describe('a local service with SMTP_URL', () => {
  const smtp = useSmtpSink();
  const service = useTestService(() => ({ ...LOCAL, SMTP_URL: smtp.url }));

  test('has no viewer: mail leaves by SMTP, and /dev/mail is 404 as any unknown path', async () => {
    const res = await get(service, '/dev/mail');
    expect({ status: res.status, type: res.headers['content-type'], body: res.body }).toEqual(await unknownPath(service));
  });
});
