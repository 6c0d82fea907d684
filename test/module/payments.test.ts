import { AccountStatus, paymentMaximumFor } from '../../src/modules/identity/account-status';
import { LedgerEntry } from '../../src/modules/ledger/ledger-entry.entity';
import { claimForCard } from '../../src/modules/checkout/card-claim';
import { IdempotencyRecord } from '../../src/modules/payments/idempotency-record.entity';
import { IDEMPOTENCY_WINDOW_MS } from '../../src/modules/payments/idempotency';
import { expireDuePayments, expirePayment } from '../../src/modules/payments/payment-expiry';
import { Payment } from '../../src/modules/payments/payment.entity';
import { createPayment, findShopPayment } from '../../src/modules/payments/payment.service';
import { CheckoutStage, PaymentStatus } from '../../src/modules/payments/payment-status';
import type { CreatePaymentRequest } from '../../src/modules/payments/payment-rules';
import { WebhookEvent } from '../../src/modules/webhooks/webhook-event.entity';
import { loadConfig } from '../../src/shared/config';
import { refusedWith } from '../support/domain-errors';
import { useModuleDatabase } from '../support/module-database';
import { testRun } from '../support/test-env';

/**
 * Creating payments (src/modules/payments/payment.service.ts, idempotency.ts) and the expiry of unpaid ones
 * (payment-expiry.ts), called directly on the run's database. A key replays its first answer for the same body
 * (metadata order aside) and refuses another body; the seller's maximum caps the amount; a pending payment past its
 * expiry fails as `expired` with one `payment.failed` event, unless its card is at the acquirer.
 */
// Enough connections for concurrent creates with one key to really wait on each other.
const db = useModuleDatabase({ poolSize: 4 });
const BODY: CreatePaymentRequest = { amount: 1000, currency: 'usd', returnUrl: 'https://shop.example/back', customerEmail: 'ann@example.com', metadata: { order: '42', gift: true } };

const HOUR = 3_600_000;
const EXPIRY = { expiresAfterMs: HOUR, baseUrl: 'https://pay.example' };

const paymentsOf = (shopId: string) => db.em().count(Payment, { shop: shopId });
const stored = (id: string) => db.em().findOneOrFail(Payment, { id });
let keys = 0;
const newKey = () => `order-${process.pid}-${keys++}`;

describe('idempotency keys', () => {
  test('the same key and body replays the first answer and creates nothing more', async () => {
    const { shop } = await db.newShop('idem-replay');
    const key = newKey();
    const first = await createPayment(db.em(), shop.id, BODY, key);
    expect(first.replayed).toBe(false);
    expect(first.payment).toMatchObject({ amount: 1000, currency: 'usd', status: PaymentStatus.PENDING, customerEmail: 'ann@example.com', metadata: { order: '42', gift: true }, completedAt: null });

    const again = await createPayment(db.em(), shop.id, BODY, key);
    expect(again).toEqual({ payment: first.payment, replayed: true });
    // Metadata with its pairs in another order is the same body.
    expect((await createPayment(db.em(), shop.id, { ...BODY, metadata: { gift: true, order: '42' } }, key)).payment.id).toBe(first.payment.id);
    expect(await paymentsOf(shop.id)).toBe(1);
    expect(await db.em().count(IdempotencyRecord, { shop: shop.id })).toBe(1);
  });

  test('the same key with another body is refused, naming the fields that differ, and creates nothing', async () => {
    const { shop } = await db.newShop('idem-reused');
    const key = newKey();
    await createPayment(db.em(), shop.id, BODY, key);
    const refused = await refusedWith(createPayment(db.em(), shop.id, { ...BODY, amount: 999, metadata: { order: '43', gift: true } }, key));
    expect(refused.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(refused.message).toBe('Idempotency-Key was already used with different parameters: amount, metadata');
    // A field left out is a different body too.
    const withoutEmail = await refusedWith(createPayment(db.em(), shop.id, { ...BODY, customerEmail: null }, key));
    expect(withoutEmail.message).toBe('Idempotency-Key was already used with different parameters: customer_email');
    expect(await paymentsOf(shop.id)).toBe(1);
  });

  test('a replay answers what was first answered, even after the payment moved on', async () => {
    const { shop } = await db.newShop('idem-moved');
    const key = newKey();
    const first = await createPayment(db.em(), shop.id, BODY, key);
    await db.em().nativeUpdate(Payment, { id: first.payment.id }, { createdAt: new Date(Date.now() - 2 * HOUR) });
    expect(await expirePayment(db.em(), EXPIRY, first.payment.id)).toBe(true);
    const replay = await createPayment(db.em(), shop.id, BODY, key);
    expect(replay).toEqual({ payment: first.payment, replayed: true });
    expect(replay.payment.status).toBe(PaymentStatus.PENDING);
  });

  test('keys are per shop: another shop with the same key gets its own payment', async () => {
    const key = newKey();
    const mine = await createPayment(db.em(), (await db.newShop('idem-mine')).shop.id, BODY, key);
    const theirs = await createPayment(db.em(), (await db.newShop('idem-theirs')).shop.id, BODY, key);
    expect(theirs.replayed).toBe(false);
    expect(theirs.payment.id).not.toBe(mine.payment.id);
  });

  test('a key of 1 to 255 characters is accepted; empty or 256 is refused and creates nothing', async () => {
    const { shop } = await db.newShop('idem-length');
    for (const key of ['', 'k'.repeat(256)]) {
      expect((await refusedWith(createPayment(db.em(), shop.id, BODY, key))).message).toBe('Idempotency-Key must be 1 to 255 characters');
    }
    expect(await paymentsOf(shop.id)).toBe(0);
    expect((await createPayment(db.em(), shop.id, BODY, 'k'.repeat(255))).replayed).toBe(false);
    expect((await createPayment(db.em(), shop.id, BODY, 'k')).replayed).toBe(false);
    expect(await paymentsOf(shop.id)).toBe(2);
  });

  test('a request refused by the rules or the maximum is not remembered: the key still creates', async () => {
    const { shop } = await db.newShop('idem-invalid');
    const key = newKey();
    expect((await refusedWith(createPayment(db.em(), shop.id, { ...BODY, amount: 49 }, key))).code).toBe('AMOUNT_TOO_SMALL');
    expect((await refusedWith(createPayment(db.em(), shop.id, BODY, key, 999))).code).toBe('AMOUNT_ABOVE_ACCOUNT_MAXIMUM');
    expect(await db.em().count(IdempotencyRecord, { shop: shop.id })).toBe(0);
    expect((await createPayment(db.em(), shop.id, BODY, key)).replayed).toBe(false);
  });

  test('after 24 hours the key is forgotten: the same key and body create a new payment', async () => {
    const { shop } = await db.newShop('idem-window');
    const key = newKey();
    const first = await createPayment(db.em(), shop.id, BODY, key);
    // Just inside the window it still replays.
    await db.em().nativeUpdate(IdempotencyRecord, { shop: shop.id, key }, { createdAt: new Date(Date.now() - IDEMPOTENCY_WINDOW_MS + 60_000) });
    expect((await createPayment(db.em(), shop.id, BODY, key)).replayed).toBe(true);
    await db.em().nativeUpdate(IdempotencyRecord, { shop: shop.id, key }, { createdAt: new Date(Date.now() - IDEMPOTENCY_WINDOW_MS - 1000) });
    const second = await createPayment(db.em(), shop.id, { ...BODY, amount: 2000 }, key);
    expect(second.replayed).toBe(false);
    expect(second.payment.id).not.toBe(first.payment.id);
    expect(await paymentsOf(shop.id)).toBe(2);
    // The key now answers for the new payment.
    expect((await createPayment(db.em(), shop.id, { ...BODY, amount: 2000 }, key)).payment.id).toBe(second.payment.id);
  });

  test('eight creates with one key at once make exactly one payment; the others replay it or are told it is in flight', async () => {
    const { shop } = await db.newShop('idem-race');
    const key = newKey();
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => createPayment(db.em(), shop.id, BODY, key)));
    expect(await paymentsOf(shop.id)).toBe(1);
    const [only] = await db.em().find(Payment, { shop: shop.id });
    const answerOf = (o: (typeof outcomes)[number]) => {
      if (o.status === 'rejected') return String((o.reason as { code?: string }).code ?? o.reason);
      if (o.value.payment.id !== only.id) return 'another payment';
      return o.value.replayed ? 'replayed' : 'created';
    };
    const answers = outcomes.map(answerOf);
    expect(answers.filter((a) => a !== 'replayed' && a !== 'IDEMPOTENCY_KEY_IN_FLIGHT')).toEqual(['created']);
  });
});

describe("the seller's maximum", () => {
  const maximums = loadConfig({ DATABASE_URL: testRun().databaseUrl }).paymentMaximums;

  test('by default a new account may take up to 100000 cents, a restricted one 10000, a verified one any amount', () => {
    expect(maximums).toEqual({ new: 100_000, verified: null, restricted: 10_000 });
  });

  test('the maximum itself is accepted, a cent more is refused with the maximum and writes nothing; no maximum caps nothing', async () => {
    const { shop } = await db.newShop('maximum');
    for (const status of [AccountStatus.NEW, AccountStatus.RESTRICTED]) {
      const maximum = paymentMaximumFor(status, maximums)!;
      const refused = await refusedWith(createPayment(db.em(), shop.id, { ...BODY, amount: maximum + 1 }, null, maximum));
      expect([status, refused.code, refused.message]).toEqual([status, 'AMOUNT_ABOVE_ACCOUNT_MAXIMUM', `Amount cannot exceed ${maximum} cents for this seller account`]);
      expect((await createPayment(db.em(), shop.id, { ...BODY, amount: maximum }, null, maximum)).payment.amount).toBe(maximum);
    }
    expect(await paymentsOf(shop.id)).toBe(2);
    const large = 100_000_000;
    expect((await createPayment(db.em(), shop.id, { ...BODY, amount: large }, null, paymentMaximumFor(AccountStatus.VERIFIED, maximums))).payment.amount).toBe(large);
  });

  test('the rules are answered before the maximum: a malformed request is told what is wrong with it', async () => {
    const { shop } = await db.newShop('maximum-order');
    expect((await refusedWith(createPayment(db.em(), shop.id, { ...BODY, amount: 10.5 }, null, 100))).code).toBe('AMOUNT_INVALID');
    expect((await refusedWith(createPayment(db.em(), shop.id, { ...BODY, currency: 'eur' }, null, 100))).code).toBe('CURRENCY_INVALID');
  });
});

describe('expiry of unpaid payments', () => {
  /** A pending payment created `ageMs` ago. */
  async function pendingPayment(label: string, ageMs: number) {
    const shop = await db.newShop(label);
    const { payment } = await createPayment(db.em(), shop.shop.id, BODY);
    await db.em().nativeUpdate(Payment, { id: payment.id }, { createdAt: new Date(Date.now() - ageMs) });
    return { shop, id: payment.id };
  }
  const eventsOf = async (id: string) => (await db.em().find(WebhookEvent, { paymentId: id }, { orderBy: { sequence: 'asc' } })).map((e) => `${e.sequence} ${e.type}`);

  test('past its expiry a pending payment fails as expired, with one payment.failed event and no money moved', async () => {
    const { id } = await pendingPayment('expiry-due', HOUR + 1000);
    expect(await expirePayment(db.em(), EXPIRY, id)).toBe(true);
    expect(await stored(id)).toMatchObject({ status: PaymentStatus.FAILED, checkoutStage: CheckoutStage.FINISHED, failureCode: 'expired', completedAt: null });
    expect(await eventsOf(id)).toEqual(['1 payment.failed']);
    expect(await db.em().count(LedgerEntry, { paymentId: id })).toBe(0);
    // Expired once: again is a no-op, with no second event.
    expect(await expirePayment(db.em(), EXPIRY, id)).toBe(false);
    expect(await eventsOf(id)).toEqual(['1 payment.failed']);
  });

  test('before its expiry nothing moves', async () => {
    const { id } = await pendingPayment('expiry-early', HOUR - 60_000);
    expect(await expirePayment(db.em(), EXPIRY, id)).toBe(false);
    expect(await stored(id)).toMatchObject({ status: PaymentStatus.PENDING, checkoutStage: CheckoutStage.CARD_REQUIRED, failureCode: null });
    expect(await eventsOf(id)).toEqual([]);
  });

  test('a card at the acquirer is never expired: its answer settles the payment', async () => {
    const { id } = await pendingPayment('expiry-processing', 30 * 60_000);
    expect(await claimForCard(db.em(), id, new Date(Date.now() - HOUR), { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2031 })).toBe(true);
    await db.em().nativeUpdate(Payment, { id }, { createdAt: new Date(Date.now() - 2 * HOUR) });
    expect(await expirePayment(db.em(), EXPIRY, id)).toBe(false);
    expect(await stored(id)).toMatchObject({ status: PaymentStatus.PENDING, checkoutStage: CheckoutStage.PROCESSING });
  });

  test('a card submitted after the expiry is not claimed', async () => {
    const { id } = await pendingPayment('expiry-claim', HOUR + 1000);
    expect(await claimForCard(db.em(), id, new Date(Date.now() - HOUR), { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2031 })).toBe(false);
    expect((await stored(id)).checkoutStage).toBe(CheckoutStage.CARD_REQUIRED);
  });

  test("reading a seller's payment past its expiry expires it first", async () => {
    const { shop, id } = await pendingPayment('expiry-read', HOUR + 1000);
    expect((await findShopPayment(db.em(), id, shop.shop.id)).status).toBe(PaymentStatus.PENDING);
    expect((await findShopPayment(db.em(), id, shop.shop.id, EXPIRY)).status).toBe(PaymentStatus.FAILED);
    expect(await eventsOf(id)).toEqual(['1 payment.failed']);
  });

  test('the sweep expires the payments due and leaves the others', async () => {
    const due = await pendingPayment('expiry-sweep-due', HOUR + 1000);
    const fresh = await pendingPayment('expiry-sweep-fresh', HOUR - 60_000);
    // Other files' payments may be due too (the database is the worker's): only ours are looked at.
    const expired = await expireDuePayments(db.em(), EXPIRY, 1000);
    expect(expired).toContain(due.id);
    expect(expired).not.toContain(fresh.id);
    expect((await stored(due.id)).status).toBe(PaymentStatus.FAILED);
    expect((await stored(fresh.id)).status).toBe(PaymentStatus.PENDING);
  });
});
