import { claimForCard } from '../../src/modules/checkout/card-claim';
import { completeInOneStatement, type CompletionFacts } from '../../src/modules/checkout/completion-statement';
import { Seller, SellerStatus } from '../../src/modules/identity/seller.entity';
import type { NewShop } from '../../src/modules/identity/shop-provisioning';
import { Shop, ShopStatus } from '../../src/modules/identity/shop.entity';
import { LedgerEntry } from '../../src/modules/ledger/ledger-entry.entity';
import { MailOutboxEntry } from '../../src/modules/notifications/mail-outbox.entity';
import { Payment } from '../../src/modules/payments/payment.entity';
import { createPayment } from '../../src/modules/payments/payment.service';
import type { ThreeDsOutcome } from '../../src/modules/payments/payment-status';
import { DELIVERIES_COMMITTED } from '../../src/modules/webhooks/outbox-store';
import { WebhookDelivery } from '../../src/modules/webhooks/webhook-delivery.entity';
import { WebhookEvent } from '../../src/modules/webhooks/webhook-event.entity';
import { countWakes } from '../support/commit-wakes';
import { useModuleDatabase } from '../support/module-database';

/**
 * What the card completion's one statement (src/modules/checkout/completion-statement.ts) writes and answers: the
 * payment's columns, the journal's lines with their seller, the event and its delivery, the customer's receipt, and
 * the shop's standing it read; and that a shop which stopped taking payments, or a second completion, writes nothing.
 * completion-follows-the-table.test.ts holds the statement to the payment table's declared effects.
 */
const db = useModuleDatabase();
const HOOK = 'https://hooks.example/in';
const CUSTOMER = 'ada@example.com';

// Later suites of this worker share its database, and their relays and mail workers would try these: leave none behind.
const shops: string[] = [];
afterEach(async () => {
  await db.em().nativeDelete(WebhookDelivery, { shop: { $in: shops } });
  await db.em().nativeDelete(MailOutboxEntry, { shopId: { $in: shops } });
});

async function shopOf(label: string, webhookUrl?: string): Promise<NewShop> {
  const shop = await db.newShop(label, { webhookUrl });
  shops.push(shop.shop.id);
  return shop;
}

/** A payment of 2000 cents claimed for a card, and the facts its completion is given. */
async function claimed(shop: NewShop, options: { customerEmail?: string; test?: boolean; threeDsOutcome?: ThreeDsOutcome } = {}): Promise<CompletionFacts> {
  const { payment } = await createPayment(db.em(), shop.shop.id, { amount: 2000, currency: 'usd', returnUrl: 'https://shop.example/back', customerEmail: options.customerEmail });
  expect(await claimForCard(db.em(), payment.id, new Date(Date.now() - 3600_000), { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2031 })).toBe(true);
  return {
    payment: { ...payment, test: options.test ?? false },
    shop: { id: shop.shop.id, name: shop.shop.name },
    processorReference: `psp-${payment.id}`,
    threeDsOutcome: options.threeDsOutcome,
    baseUrl: 'https://pay.example',
  };
}

const paymentRow = (id: string) => db.em().findOneOrFail(Payment, { id });
const journalOf = async (paymentId: string) =>
  (await db.em().find(LedgerEntry, { paymentId }, { orderBy: { id: 'asc' } })).map((e) => ({
    journal: e.journalId,
    line: `${e.account} ${e.kind} ${e.amount}`,
    seller: e.sellerId ?? null,
    at: e.createdAt.getTime(),
  }));
const eventsOf = (paymentId: string) => db.em().find(WebhookEvent, { paymentId });
const receiptsOf = (paymentId: string) => db.em().find(MailOutboxEntry, { subjectId: paymentId });

describe('a completion that lands', () => {
  const wakes = countWakes(() => db.em(), DELIVERIES_COMMITTED);

  test("writes the payment's columns, answers what it wrote and the standing it read, and wakes the relays for its delivery", async () => {
    const shop = await shopOf('completion-all', HOOK);
    const facts = await claimed(shop, { customerEmail: CUSTOMER, threeDsOutcome: 'challenged' });
    // A payment flagged for a person (reconciliation) is no longer once completed.
    await db.em().nativeUpdate(Payment, { id: facts.payment.id }, { needsAttentionAt: new Date() });

    const result = await completeInOneStatement(db.em(), facts);
    expect(result).toEqual({
      completed: true,
      standing: { shopStatus: 'active', shopDeleted: false, sellerStatus: 'active' },
      delivery: true,
      receipt: true,
      written: { status: 'completed', checkoutStage: 'finished', completedAt: expect.any(Date) },
    });
    expect(wakes.count).toBe(1);
    const completedAt = result.written!.completedAt!;
    expect(await paymentRow(facts.payment.id)).toMatchObject({
      status: 'completed',
      checkoutStage: 'finished',
      completedAt,
      processorReference: `psp-${facts.payment.id}`,
      threeDsOutcome: 'challenged',
      needsAttentionAt: null,
    });

    // One journal: the seller's lines name the seller, the others no one, all written when the payment completed.
    const journal = await journalOf(facts.payment.id);
    expect(journal.map(({ line, seller }) => [line, seller])).toEqual([
      ['customer_funds payment -2000', null],
      ['seller_balance payment 2000', shop.seller.id],
      ['seller_balance fee -300', shop.seller.id],
      ['fee_revenue fee 300', null],
    ]);
    expect(new Set(journal.map((e) => e.journal)).size).toBe(1);
    expect(journal.every((e) => e.at === completedAt.getTime())).toBe(true);

    // The event shows the payment as the statement left it, and goes to the shop's webhook.
    const [event] = await eventsOf(facts.payment.id);
    expect(JSON.parse(event.body)).toMatchObject({
      event: 'payment.completed',
      sequence: 1,
      payment: { id: facts.payment.id, status: 'completed', amount: 2000, customer_email: CUSTOMER, completed_at: completedAt.toISOString() },
      shop: { id: shop.shop.id, shop_name: shop.shop.name },
    });
    expect(JSON.parse(event.body).test).toBeUndefined();
    expect(await db.em().count(WebhookDelivery, { event: event.id })).toBe(1);

    // The customer's receipt, once, for this payment of this shop and seller.
    expect(await receiptsOf(facts.payment.id)).toEqual([
      expect.objectContaining({ kind: 'receipt', recipient: CUSTOMER, sellerId: shop.seller.id, shopId: shop.shop.id, paymentId: facts.payment.id }),
    ]);
  });

  test("without a webhook URL or a customer's address: no delivery and no receipt, and the relays are not woken", async () => {
    const facts = await claimed(await shopOf('completion-bare'));
    const result = await completeInOneStatement(db.em(), facts);
    expect(result).toMatchObject({ completed: true, delivery: false, receipt: false });
    expect(wakes.count).toBe(0);
    expect(await eventsOf(facts.payment.id)).toHaveLength(1);
    expect(await receiptsOf(facts.payment.id)).toEqual([]);
  });

  test('3-D Secure not known (reconciliation): the stored outcome is kept', async () => {
    const facts = await claimed(await shopOf('completion-3ds'));
    await db.em().nativeUpdate(Payment, { id: facts.payment.id }, { threeDsOutcome: 'frictionless' });
    await completeInOneStatement(db.em(), facts);
    expect((await paymentRow(facts.payment.id)).threeDsOutcome).toBe('frictionless');
  });

  test("a live test: the test journal without fee, the seller's line to the seller, and the event marked as a test", async () => {
    const shop = await shopOf('completion-live-test');
    const facts = await claimed(shop, { test: true });
    expect((await completeInOneStatement(db.em(), facts)).completed).toBe(true);
    expect((await journalOf(facts.payment.id)).map(({ line, seller }) => [line, seller])).toEqual([
      ['customer_funds test_payment -2000', null],
      ['seller_balance test_payment 2000', shop.seller.id],
    ]);
    const [event] = await eventsOf(facts.payment.id);
    expect(JSON.parse(event.body)).toMatchObject({ event: 'payment.completed', test: true });
  });

  test('a second completion of the payment finds nothing to move and writes nothing more', async () => {
    const facts = await claimed(await shopOf('completion-twice', HOOK), { customerEmail: CUSTOMER });
    expect((await completeInOneStatement(db.em(), facts)).completed).toBe(true);
    wakes.reset();
    expect(await completeInOneStatement(db.em(), facts)).toMatchObject({ completed: false, delivery: false, receipt: false, written: null });
    expect(wakes.count).toBe(0);
    expect(await journalOf(facts.payment.id)).toHaveLength(4);
    expect(await eventsOf(facts.payment.id)).toHaveLength(1);
    expect(await receiptsOf(facts.payment.id)).toHaveLength(1);
  });
});

describe('a shop that no longer takes payments', () => {
  /** The completion of a claimed payment after `stop` changed its shop or seller: it answers the standing it read. */
  async function completedAfter(label: string, stop: (shop: NewShop) => Promise<unknown>) {
    const shop = await shopOf(label, HOOK);
    const facts = await claimed(shop, { customerEmail: CUSTOMER });
    await stop(shop);
    const result = await completeInOneStatement(db.em(), facts);
    // Nothing is written: the payment waits in `processing` for the caller to fail it.
    const payment = await paymentRow(facts.payment.id);
    expect([payment.status, payment.checkoutStage, payment.completedAt, payment.processorReference]).toEqual(['pending', 'processing', null, null]);
    expect(await journalOf(facts.payment.id)).toEqual([]);
    expect(await eventsOf(facts.payment.id)).toEqual([]);
    expect(await receiptsOf(facts.payment.id)).toEqual([]);
    expect(result).toMatchObject({ completed: false, delivery: false, receipt: false, written: null });
    return result.standing;
  }

  test('a suspended seller, an inactive shop, a deleted shop: nothing moves, and each is told as it stands', async () => {
    expect(await completedAfter('completion-suspended', (shop) => db.em().nativeUpdate(Seller, { id: shop.seller.id }, { status: SellerStatus.SUSPENDED }))).toEqual({
      shopStatus: 'active',
      shopDeleted: false,
      sellerStatus: 'suspended',
    });
    expect(await completedAfter('completion-inactive', (shop) => db.em().nativeUpdate(Shop, { id: shop.shop.id }, { status: ShopStatus.INACTIVE }))).toEqual({
      shopStatus: 'inactive',
      shopDeleted: false,
      sellerStatus: 'active',
    });
    expect(await completedAfter('completion-deleted', (shop) => db.em().nativeUpdate(Shop, { id: shop.shop.id }, { deletedAt: new Date() }))).toEqual({
      shopStatus: 'active',
      shopDeleted: true,
      sellerStatus: 'active',
    });
  });
});
