import { eventually } from '../../support/admin-client';
import { checkoutClient } from '../../support/checkout-client';
import { dashboard, signUpSeller } from '../../support/dashboard-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useSmtpSink } from '../../support/smtp-sink';
import { useTestService } from '../../support/test-service';
import { DEFAULT_CUSTOMER_MAILS_PER_DAY } from '../../../src/shared/config';

/**
 * Mail that cannot be turned on a third party: a seller pays a small amount with a victim's address as
 * `customer_email`, then sends many one-cent refund requests. The victim gets the receipt and one request mail. Over many
 * payments and shops, however the address is spelt, the victim's mailbox gets at most MAIL_CUSTOMER_MAILS_PER_DAY.
 */
const smtp = useSmtpSink();
// The customer mail cap as shipped (the other suites lift it: they share their worker's database and its addresses).
const service = useTestService(() => ({ SMTP_URL: smtp.url, RATE_LIMIT_PER_MINUTE: '10000', MAIL_POLL_INTERVAL_MS: '50', MAIL_CUSTOMER_MAILS_PER_DAY: String(DEFAULT_CUSTOMER_MAILS_PER_DAY) }));

/** A seller's paid payment to `victim`, then twenty one-cent refund requests from its dashboard; the payment's mail rows by kind. */
async function flood(verified: boolean, victim: string) {
  const seller = await signUpSeller(service.url);
  if (verified) await service.em().getConnection().execute(`update "sellers" set "email_verified_at" = now() where "id" = ?`, [seller.sellerId]);
  const created = await sellerClient(service.url, seller.apiKey).create({ ...VALID_PAYMENT, amount: 100, customer_email: victim });
  const paymentId = created.body.data.id as string;
  expect((await checkoutClient(service.url).pay(paymentId, '4242424242424242')).body.data.submitCard.status).toBe('COMPLETED');
  for (let i = 0; i < 20; i++) {
    const asked = await dashboard(service.url, 'RequestRefund', { paymentId, reason: `flood ${i}`, amount: 1 }, seller.session);
    expect(asked.body.errors).toBeUndefined();
  }
  return service.em().getConnection().execute<{ kind: string; n: number }[]>(`select "kind", count(*)::int as n from "mail_outbox" where "payment_id" = ? group by "kind" order by "kind"`, [paymentId]);
}

test('twenty one-cent refund requests on one payment mail its customer once (besides the receipt)', async () => {
  const victim = `victim-${Date.now()}@example.com`;
  expect(await flood(true, victim)).toEqual([{ kind: 'receipt', n: 1 }, { kind: 'refund-requested', n: 1 }]);
  await smtp.waitFor((m) => m.envelopeTo.includes(victim), 2);
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(smtp.received.filter((m) => m.envelopeTo.includes(victim))).toHaveLength(2);
});

test('a seller who has not verified their own address mails customers nothing but the receipt', async () => {
  const victim = `victim-unverified-${Date.now()}@example.com`;
  expect(await flood(false, victim)).toEqual([{ kind: 'receipt', n: 1 }]);
});

test('a flood over many payments of two shops, the victim spelt a new way each time: the mailbox gets the daily cap, the rest are suppressed', async () => {
  const cap = DEFAULT_CUSTOMER_MAILS_PER_DAY;
  const victim = `flooded-${Date.now()}@example.com`;
  const spelling = (i: number) => (i % 2 ? `${victim.replace('@', `+${i}@`)}` : `${victim.toUpperCase()}`);
  const sellers = [await signUpSeller(service.url), await signUpSeller(service.url)];
  for (const seller of sellers) await service.em().getConnection().execute(`update "sellers" set "email_verified_at" = now() where "id" = ?`, [seller.sellerId]);
  const paymentIds: string[] = [];
  // Each payment mails a receipt and, on its first refund request, one request mail: 2 mails a payment.
  for (let i = 0; paymentIds.length < cap / 2 + 6; i++) {
    const seller = sellers[i % 2];
    const created = await sellerClient(service.url, seller.apiKey).create({ ...VALID_PAYMENT, amount: 100, customer_email: spelling(i) });
    const paymentId = created.body.data.id as string;
    expect((await checkoutClient(service.url).pay(paymentId, '4242424242424242')).body.data.submitCard.status).toBe('COMPLETED');
    expect((await dashboard(service.url, 'RequestRefund', { paymentId, reason: 'flood', amount: 1 }, seller.session)).body.errors).toBeUndefined();
    paymentIds.push(paymentId);
  }
  const toVictim = (m: { envelopeTo: string[] }) => m.envelopeTo.some((to) => to.toLowerCase().replace(/\+\d+@/, '@') === victim);
  await smtp.waitFor(toVictim, cap);
  const rows = async () =>
    service.em().getConnection().execute<{ status: string; n: number }[]>(`select "status", count(*)::int as n from "mail_outbox" where "payment_id" in (${paymentIds.map(() => '?').join(', ')}) group by "status" order by "status"`, paymentIds);
  const total = paymentIds.length * 2;
  await eventually(async () => (await rows()).every((r) => r.status === 'sent' || r.status === 'suppressed'), 10_000, 'every mail decided');
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(smtp.received.filter(toVictim)).toHaveLength(cap);
  expect(await rows()).toEqual([{ status: 'sent', n: cap }, { status: 'suppressed', n: total - cap }]);
  // Logged without the address; another customer's receipt still goes.
  expect(service.logs.filter((l) => l.msg === 'customer mail not sent: its mailbox reached MAIL_CUSTOMER_MAILS_PER_DAY')).toHaveLength(total - cap);
  expect(JSON.stringify(service.logs)).not.toContain(victim.split('@')[0]);
  const other = `unrelated-${Date.now()}@example.com`;
  const created = await sellerClient(service.url, sellers[0].apiKey).create({ ...VALID_PAYMENT, customer_email: other });
  await checkoutClient(service.url).pay(created.body.data.id, '4242424242424242');
  await smtp.waitFor((m) => m.envelopeTo.includes(other));
});
