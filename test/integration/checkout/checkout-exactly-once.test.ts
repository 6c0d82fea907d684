import { LedgerAccount, LedgerEntry } from '../../../src/modules/ledger/ledger-entry.entity';
import { sellerBalance } from '../../../src/modules/ledger/ledger.service';
import { WebhookEvent } from '../../../src/modules/webhooks/webhook-event.entity';
import { checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

const service = useTestService({ SIMULATED_ACQUIRER_DELAY_MS: '30' });

async function shopWithPayment(amount = 1000) {
  const shop = await service.createShop();
  const seller = sellerClient(service.url, shop.apiKey);
  const id = (await seller.create({ ...VALID_PAYMENT, amount })).body.data.id as string;
  return { shop, seller, id };
}

describe('a payment is charged and credited at most once', () => {
  test('30 simultaneous card submissions: one completion, one credit, one fee, one event; all answer completed', async () => {
    const { shop, id } = await shopWithPayment(1000);
    const customer = checkoutClient(service.url);
    const answers = await Promise.all(Array.from({ length: 30 }, () => customer.pay(id, '4242424242424242')));
    const views = answers.map((res) => res.body.data?.submitCard);
    expect(views.every((v) => v && ['PROCESSING', 'FINISHED'].includes(v.stage))).toBe(true);
    // The ones that arrived while the first was at the acquirer see `processing`; the outcome follows.
    expect((await customer.view(id)).body.data.checkoutPayment.status).toBe('COMPLETED');

    const entries = await service.em().find(LedgerEntry, { paymentId: id });
    expect(entries.filter((e) => e.account === 'seller_balance').map((e) => [e.kind, e.amount]).sort()).toEqual([['fee', -150], ['payment', 1000]]);
    expect(await service.em().count(WebhookEvent, { paymentId: id })).toBe(1);
    expect(await sellerBalance(service.em(), shop.seller.id)).toBe(850n);
  });

  test('20 simultaneous answers to one 3-D Secure challenge complete it once', async () => {
    const { shop, id } = await shopWithPayment(2000);
    const customer = checkoutClient(service.url);
    await customer.pay(id, '4000000000003220');
    await Promise.all(Array.from({ length: 20 }, (_, i) => customer.authenticate(id, i % 2 === 0)));
    const final = (await customer.view(id)).body.data.checkoutPayment;
    expect(['COMPLETED', 'FAILED']).toContain(final.status);
    const credits = await service.em().count(LedgerEntry, { paymentId: id, account: LedgerAccount.SELLER_BALANCE, kind: 'payment' });
    expect(credits).toBe(final.status === 'COMPLETED' ? 1 : 0);
    expect(await sellerBalance(service.em(), shop.seller.id)).toBe(BigInt(final.status === 'COMPLETED' ? 1700 : 0));
  });

  test('the seller balance equals the sum of net amounts of completed payments, after successes and failures', async () => {
    const shop = await service.createShop();
    const seller = sellerClient(service.url, shop.apiKey);
    const customer = checkoutClient(service.url);
    const plan: [number, string][] = [[50, '4242424242424242'], [99, '4000000000000002'], [101, '4242424242424242'], [1, '4242424242424242'], [12345, '4000000032200000'], [777, '4000000000009995']];
    let expected = 0;
    for (const [amount, card] of plan) {
      const res = await seller.create({ ...VALID_PAYMENT, amount: Math.max(amount, 50) });
      const view = (await customer.pay(res.body.data.id, card)).body.data.submitCard;
      if (view.status === 'COMPLETED') expected += Math.max(amount, 50) - Math.floor((Math.max(amount, 50) * 15 + 50) / 100);
    }
    expect(expected).toBe(42 + 86 + 42 + 10493);
    expect(await sellerBalance(service.em(), shop.seller.id)).toBe(BigInt(expected));
  });
});
