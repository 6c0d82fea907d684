import { checkoutClient } from '../support/checkout-client';
import { dashboard, signUpSeller } from '../support/dashboard-client';
import { sellerClient, VALID_PAYMENT } from '../support/seller-client';
import { useSmtpSink } from '../support/smtp-sink';
import { useTestService } from '../support/test-service';

/**
 * Mail that cannot be turned on a third party: a seller pays a small amount with a victim's address as
 * `customer_email`, then sends many one-cent refund requests. The victim gets the receipt and one request mail.
 */
const smtp = useSmtpSink();
const service = useTestService(() => ({ SMTP_URL: smtp.url, RATE_LIMIT_PER_MINUTE: '10000', MAIL_POLL_INTERVAL_MS: '50' }));

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
