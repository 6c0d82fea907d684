import { randomBytes } from 'node:crypto';
import { createSecretBox } from '../../../src/modules/identity/secret-box';
import { claimForCard } from '../../../src/modules/checkout/card-claim';
import { Payment } from '../../../src/modules/payments/payment.entity';
import { CheckoutStage, PaymentStatus } from '../../../src/modules/payments/payment-status';
import { createPayment } from '../../../src/modules/payments/payment.service';
import { createSellerWithShop, type NewShop } from '../../../src/modules/identity/shop-provisioning';
import { useModuleDatabase } from '../../support/module-database';

/**
 * The card claim (src/modules/checkout/card-claim.ts): the payment table's `submitCard` move as one plain UPDATE. Only
 * a pending payment at `card_required`, created after the deadline, is claimed, once; the claim writes the card
 * summary and the time it went to the acquirer, and nothing for a payment it does not claim.
 */
const { em } = useModuleDatabase();
let shop: NewShop;
const CARD = { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2031 };
const HOUR = 3600_000;

beforeAll(async () => {
  shop = await createSellerWithShop(em(), { email: `claim-${randomBytes(4).toString('hex')}@example.com`, shopName: 'Claim Shop' }, createSecretBox(undefined));
});

async function newPayment(): Promise<string> {
  const { payment } = await createPayment(em(), shop.shop.id, { amount: 1000, currency: 'usd', returnUrl: 'https://shop.example/back' });
  return payment.id;
}
const stored = (id: string) => em().findOneOrFail(Payment, { id });
const anHourAgo = () => new Date(Date.now() - HOUR);

test('claims a pending payment at card_required once, writing the card summary and when it went to the acquirer', async () => {
  const id = await newPayment();
  const before = Date.now();
  expect(await claimForCard(em(), id, anHourAgo(), CARD)).toBe(true);
  const claimed = await stored(id);
  expect(claimed).toMatchObject({ status: PaymentStatus.PENDING, checkoutStage: CheckoutStage.PROCESSING, cardBrand: 'visa', cardLast4: '4242', cardExpMonth: 12, cardExpYear: 2031 });
  expect(claimed.processingSince!.getTime()).toBeGreaterThanOrEqual(before - 1000);
  // A second submission (double click, second tab) finds it at `processing`: not claimed, nothing written.
  expect(await claimForCard(em(), id, anHourAgo(), { ...CARD, last4: '0000' })).toBe(false);
  expect((await stored(id)).cardLast4).toBe('4242');
});

test('two claims racing on one payment: exactly one wins', async () => {
  const id = await newPayment();
  const results = await Promise.all(Array.from({ length: 6 }, () => claimForCard(em(), id, anHourAgo(), CARD)));
  expect(results.filter(Boolean)).toHaveLength(1);
});

test('a payment created before the deadline (past its expiry) is not claimed', async () => {
  const id = await newPayment();
  await em().nativeUpdate(Payment, { id }, { createdAt: new Date(Date.now() - 2 * HOUR) });
  expect(await claimForCard(em(), id, anHourAgo(), CARD)).toBe(false);
  expect(await stored(id)).toMatchObject({ checkoutStage: CheckoutStage.CARD_REQUIRED, cardLast4: null, processingSince: null });
  // Created just after the deadline: claimed.
  await em().nativeUpdate(Payment, { id }, { createdAt: new Date(Date.now() - HOUR + 60_000) });
  expect(await claimForCard(em(), id, anHourAgo(), CARD)).toBe(true);
});

test('a payment that left pending, or an unknown one, is not claimed', async () => {
  const id = await newPayment();
  await em().nativeUpdate(Payment, { id }, { status: PaymentStatus.FAILED });
  expect(await claimForCard(em(), id, anHourAgo(), CARD)).toBe(false);
  expect(await stored(id)).toMatchObject({ status: PaymentStatus.FAILED, checkoutStage: CheckoutStage.CARD_REQUIRED, cardLast4: null });
  expect(await claimForCard(em(), 'pay_000000000000000000000000', anHourAgo(), CARD)).toBe(false);
});
