import { LedgerEntry } from '../../../src/modules/ledger/ledger-entry.entity';
import { Payment } from '../../../src/modules/payments/payment.entity';
import { WebhookEvent } from '../../../src/modules/webhooks/webhook-event.entity';
import { checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

/** Two instances of the service on one database and one Redis namespace: how it runs scaled out. */
const a = useTestService({ RATE_LIMIT_PER_MINUTE: '1000', SIMULATED_ACQUIRER_DELAY_MS: '20' }, 'two-instances');
const b = useTestService({ RATE_LIMIT_PER_MINUTE: '1000', SIMULATED_ACQUIRER_DELAY_MS: '20' }, 'two-instances');

test('one Idempotency-Key sent to both instances at once creates one payment', async () => {
  const { apiKey, shop } = await a.createShop();
  const body = { ...VALID_PAYMENT, metadata: { order: 'multi' } };
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => sellerClient(i % 2 ? a.url : b.url, apiKey).create(body, { 'Idempotency-Key': 'order-multi' })),
  );
  const ids = new Set(answers.filter((r) => r.status === 200).map((r) => r.body.data.id));
  expect(ids.size).toBe(1);
  expect(answers.every((r) => r.status === 200 || r.status === 409)).toBe(true);
  expect(await a.em().count(Payment, { shop: shop.id })).toBe(1);
});

test('one payment submitted on both instances at once is completed and credited once', async () => {
  const { apiKey, shop } = await a.createShop();
  const id = (await sellerClient(a.url, apiKey).create(VALID_PAYMENT)).body.data.id;
  await Promise.all(Array.from({ length: 20 }, (_, i) => checkoutClient(i % 2 ? a.url : b.url).pay(id, '4242424242424242')));
  expect((await sellerClient(b.url, apiKey).retrieve(id)).body.data.status).toBe('completed');
  expect(await a.em().count(LedgerEntry, { paymentId: id, sellerId: shop.seller.id })).toBe(2);
  expect(await a.em().count(WebhookEvent, { paymentId: id })).toBe(1);
});
