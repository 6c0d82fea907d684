import { checkoutClient } from '../../support/checkout-client';
import { dashboard, signUpSeller } from '../../support/dashboard-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useSmtpSink, type SunkMail } from '../../support/smtp-sink';
import { useTestService } from '../../support/test-service';

/**
 * Receipts (docs/integrate.md, "What your customers receive"): a paid payment with `customer_email` gets exactly
 * one receipt, in the shop's name, with everything the issue lists; one without gets none. A real SMTP server on
 * loopback takes the mails and mailparser reads every one of them.
 */
const smtp = useSmtpSink();
const service = useTestService(() => ({ SMTP_URL: smtp.url, MAIL_POLL_INTERVAL_MS: '100', MAIL_RETRY_BASE_DELAY_MS: '100', MAIL_TIMEOUT_MS: '2000' }));

const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) => service.em().execute<T[]>(query, params);
let customers = 0;
const newCustomer = () => `customer-${Date.now()}-${++customers}@example.com`;

async function paid(apiKey: string, fields: Record<string, unknown>, card = '4242424242424242'): Promise<string> {
  const created = await sellerClient(service.url, apiKey).create({ ...VALID_PAYMENT, ...fields });
  expect(created.status).toBe(200);
  const id = created.body.data.id as string;
  const answer = await checkoutClient(service.url).pay(id, card);
  expect(answer.body.data.submitCard.status).toBe('COMPLETED');
  return id;
}

const header = (mail: SunkMail, name: string) => mail.headerLines.filter((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`));

describe('a paid payment with customer_email', () => {
  let mail: SunkMail;
  let paymentId: string;
  let sellerEmail: string;
  const customer = newCustomer();
  beforeAll(async () => {
    const shop = await service.createShop({ shopName: 'Corner Bakery' });
    sellerEmail = shop.seller.email;
    paymentId = await paid(shop.apiKey, { amount: 123456, customer_email: customer, customer_name: 'Ann Example' });
    [mail] = await smtp.waitFor((m) => m.envelopeTo.includes(customer));
  });

  test('gets one receipt, sent in the shop\'s name, answered to the seller', () => {
    expect(mail.envelopeTo).toEqual([customer]);
    expect(mail.parsed.from?.value).toEqual([{ name: 'Corner Bakery via Payments', address: 'no-reply@pay.example.test' }]);
    expect(mail.parsed.replyTo?.value).toEqual([{ name: '', address: sellerEmail }]);
    expect(mail.parsed.to && 'value' in mail.parsed.to ? mail.parsed.to.value.map((a) => a.address) : []).toEqual([customer]);
    expect(mail.parsed.subject).toBe('Your receipt from Corner Bakery');
    expect(mail.parsed.messageId).toMatch(/^<mail_[0-9A-Za-z]{24}@pay\.example\.test>$/);
    // multipart/alternative: a plain text part and its HTML twin
    expect(mail.parsed.text).toBeTruthy();
    expect(typeof mail.parsed.html).toBe('string');
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/i);
  });

  test('shows the amount in dollars, the UTC date and time, the payment id and receipt number, the card, the customer and the seller\'s address', async () => {
    const [payment] = await sql<{ completed_at: Date }>('select "completed_at" from "payments" where "id" = ?', [paymentId]);
    const completed = new Date(payment.completed_at);
    const day = completed.toISOString().slice(0, 10).replace(/-/g, '');
    const time = `${String(completed.getUTCHours()).padStart(2, '0')}:${String(completed.getUTCMinutes()).padStart(2, '0')} UTC`;
    for (const part of [mail.parsed.text!, mail.parsed.html as string]) {
      expect(part).toContain('$1,234.56');
      expect(part).toContain(time);
      expect(part).toContain(paymentId);
      expect(part).toMatch(new RegExp(`R-${day}-[0-9A-HJKMNP-TV-Z]{8}`));
      expect(part).toContain('Visa ending in 4242');
      expect(part).toContain('Ann Example');
      expect(part).toContain(sellerEmail);
    }
    expect(mail.parsed.text).toMatch(/Date: \d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d UTC/);
  });

  test('never carries more of the card than its last four digits, nor a link that signs anyone in', () => {
    expect(mail.raw).not.toContain('4242424242424242');
    expect(mail.raw).not.toMatch(/4242[\s-]?4242/);
    const links = [...(mail.parsed.html as string).matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    expect(links.every((link) => link.startsWith('mailto:'))).toBe(true);
    expect(mail.parsed.text).not.toMatch(/https?:\/\//);
    expect(mail.raw).not.toMatch(/token=|whsec_|svc_live_/);
  });

  test('its HTML has no remote image, no script, no style sheet: inline styles only', () => {
    const html = mail.parsed.html as string;
    expect(html).not.toMatch(/<img|<script|<style|<link|<iframe|src=|url\(/i);
    expect(html).toMatch(/<html lang="en" dir="ltr">/);
    expect(html).toContain('style="');
  });

  test('it is one receipt, however often the completion is replayed', async () => {
    const again = await checkoutClient(service.url).pay(paymentId, '4242424242424242');
    expect(again.body.data.submitCard.status).toBe('COMPLETED');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.to(customer)).toHaveLength(1);
    expect(await sql('select "id" from "mail_outbox" where "payment_id" = ?', [paymentId])).toHaveLength(1);
    const [row] = await sql<{ status: string; kind: string; subject_id: string }>('select "status", "kind", "subject_id" from "mail_outbox" where "payment_id" = ?', [paymentId]);
    expect(row).toEqual({ status: 'sent', kind: 'receipt', subject_id: paymentId });
  });
});

test('a paid payment without customer_email gets no receipt (and no outbox row)', async () => {
  const shop = await service.createShop();
  const id = await paid(shop.apiKey, {});
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await sql('select "id" from "mail_outbox" where "payment_id" = ?', [id])).toEqual([]);
});

test('a declined payment gets no receipt', async () => {
  const shop = await service.createShop();
  const customer = newCustomer();
  const created = await sellerClient(service.url, shop.apiKey).create({ ...VALID_PAYMENT, customer_email: customer });
  const answer = await checkoutClient(service.url).pay(created.body.data.id, '4000000000000002');
  expect(answer.body.data.submitCard.status).toBe('FAILED');
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(smtp.to(customer)).toEqual([]);
  expect(await sql('select "id" from "mail_outbox" where "payment_id" = ?', [created.body.data.id])).toEqual([]);
});

test('without a name, the receipt says nothing of one; the brand is named with the last four digits', async () => {
  const shop = await service.createShop({ shopName: 'Plain Shop' });
  const customer = newCustomer();
  // 6011… is Discover; any other Luhn-valid number is approved by the simulator
  await paid(shop.apiKey, { customer_email: customer }, '6011111111111117');
  const [mail] = await smtp.waitFor((m) => m.envelopeTo.includes(customer));
  expect(mail.parsed.text).toContain('Discover ending in 1117');
  expect(mail.parsed.text).not.toContain('Billed to');
});

test('the support address the seller sets on the Account screen is the Reply-To and the address the receipt gives', async () => {
  const seller = await signUpSeller(service.url);
  const set = await dashboard(service.url, 'SetMailSettings', { supportEmail: 'help@bakery.example', enabledTopics: ['DISPUTES'] }, seller.session);
  expect(set.body.errors).toBeUndefined();
  expect(set.body.data.setMailSettings.supportEmail).toBe('help@bakery.example');
  const customer = newCustomer();
  await paid(seller.apiKey, { customer_email: customer });
  const [mail] = await smtp.waitFor((m) => m.envelopeTo.includes(customer));
  expect(mail.parsed.replyTo?.value).toEqual([{ name: '', address: 'help@bakery.example' }]);
  expect(mail.parsed.text).toContain('Write to Dashboard Shop at help@bakery.example');
});

describe('what a shop or customer typed never reaches a header', () => {
  test('a shop name with "\\r\\nBcc: x@evil.test" produces no extra header and no extra recipient', async () => {
    const shop = await service.createShop({ shopName: 'Evil Shop\r\nBcc: x@evil.test' });
    const customer = newCustomer();
    await paid(shop.apiKey, { customer_email: customer, customer_name: 'Eve\r\nCc: y@evil.test' });
    const [mail] = await smtp.waitFor((m) => m.envelopeTo.includes(customer));
    expect(mail.envelopeTo).toEqual([customer]);
    expect(header(mail, 'bcc')).toEqual([]);
    expect(header(mail, 'cc')).toEqual([]);
    expect(mail.parsed.bcc).toBeUndefined();
    expect(mail.parsed.cc).toBeUndefined();
    expect(header(mail, 'from')).toHaveLength(1);
    expect(header(mail, 'subject')).toHaveLength(1);
    // The name is there, as words, in one header: its line break became a space.
    expect(mail.parsed.from?.value[0]).toEqual({ name: 'Evil Shop Bcc: via Payments', address: 'no-reply@pay.example.test' });
    expect(mail.parsed.subject).toBe('Your receipt from Evil Shop Bcc: x@evil.test');
    expect(smtp.received.filter((m) => m.envelopeTo.some((a) => a.endsWith('@evil.test')))).toEqual([]);
  });

  test('a shop name that passes for another sender or turns text around shows as plain words: no quoted address, no bidirectional control', async () => {
    const shop = await service.createShop({ shopName: 'PayPal Security" <security@paypal.com>\u202e moc.lapyap' });
    const customer = newCustomer();
    await paid(shop.apiKey, { customer_email: customer });
    const [mail] = await smtp.waitFor((m) => m.envelopeTo.includes(customer));
    expect(mail.parsed.from?.value).toEqual([{ name: 'PayPal Security moc.lapyap via Payments', address: 'no-reply@pay.example.test' }]);
    expect(mail.parsed.subject).toBe('Your receipt from PayPal Security" <security@paypal.com> moc.lapyap');
    expect(`${mail.parsed.subject}${mail.parsed.from?.text}`).not.toMatch(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069]/);
  });

  test('other control characters and line separators in a shop name are encoded away too', async () => {
    const shop = await service.createShop({ shopName: 'Tab\tBell\u0007Sep\u2028Next\u0085Line' });
    const customer = newCustomer();
    await paid(shop.apiKey, { customer_email: customer });
    const [mail] = await smtp.waitFor((m) => m.envelopeTo.includes(customer));
    expect(mail.parsed.subject).toBe('Your receipt from Tab Bell Sep Next Line');
    expect(mail.headerLines.every((line) => !/[\u0000-\u0008\u000b-\u001f\u007f\u2028]/.test(line))).toBe(true);
  });

  test('a customer address a header cannot carry (a comma, a control character) is refused by the API; one stored before that rule is never used: the receipt fails, for admins to see', async () => {
    const shop = await service.createShop();
    const odd = `ann,bob\u0007${Date.now()}@example.com`;
    expect((await sellerClient(service.url, shop.apiKey).create({ ...VALID_PAYMENT, customer_email: odd })).status).toBe(400);
    const created = await sellerClient(service.url, shop.apiKey).create({ ...VALID_PAYMENT, customer_email: newCustomer() });
    const id = created.body.data.id as string;
    await sql('update "payments" set "customer_email" = ? where "id" = ?', [odd, id]);
    expect((await checkoutClient(service.url).pay(id, '4242424242424242')).body.data.submitCard.status).toBe('COMPLETED');
    const before = smtp.received.length;
    let row: { status: string; last_error: string | null } | undefined;
    for (let i = 0; i < 100 && row?.status !== 'failed'; i++) {
      [row] = await sql<{ status: string; last_error: string | null }>('select "status", "last_error" from "mail_outbox" where "payment_id" = ?', [id]);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(row).toEqual({ status: 'failed', last_error: 'the recipient address cannot be used in a mail' });
    expect(smtp.received.slice(before).filter((m) => m.envelopeTo.some((a) => a.includes('bob')))).toEqual([]);
  });

  test('a support address with a line break is refused before it is stored (by the input guard), and one with a space by the address rule', async () => {
    const seller = await signUpSeller(service.url);
    const answer = await dashboard(service.url, 'SetMailSettings', { supportEmail: 'help@x.example\r\nBcc: x@evil.test', enabledTopics: [] }, seller.session);
    expect(answer.body.errors?.[0].extensions.code).toBe('TEXT_INPUT_INVALID');
    expect(answer.body.errors?.[0].message).toBe('supportEmail cannot contain control characters or lone surrogates (only a reason or note may hold tabs and line breaks)');
    const spaced = await dashboard(service.url, 'SetMailSettings', { supportEmail: 'help@x.example Bcc: x@evil.test', enabledTopics: [] }, seller.session);
    expect(spaced.body.errors?.[0].extensions.code).toBe('SUPPORT_EMAIL_INVALID');
    expect(spaced.body.errors?.[0].message).toBe('Support email must be a valid email address, without spaces, quotes or brackets');
  });
});
