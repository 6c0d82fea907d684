import { LedgerEntry } from '../../../src/modules/ledger/ledger-entry.entity';
import { Payment } from '../../../src/modules/payments/payment.entity';
import type { SimulatedAcquirer } from '../../../src/platform/processor/simulated-acquirer';
import { Seller, SellerStatus } from '../../../src/modules/identity/seller.entity';
import { WebhookEvent } from '../../../src/modules/webhooks/webhook-event.entity';
import { adminClient, eventually } from '../../support/admin-client';
import { checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

/**
 * A shop that is inactive or deleted, or whose seller is suspended or inactive, takes no
 * card payment. The acquirer is slow here (SIMULATED_ACQUIRER_DELAY_MS) so a suspension can land while a
 * card is at it.
 */
const ACQUIRER_DELAY_MS = 800;
const service = useTestService({ SIMULATED_ACQUIRER_DELAY_MS: String(ACQUIRER_DELAY_MS) });
let admin: Awaited<ReturnType<typeof adminClient>>;
const customer = () => checkoutClient(service.url);

beforeAll(async () => {
  admin = await adminClient(service);
});

const acquirer = () => service.services.checkout.processor as SimulatedAcquirer;
const callsAbout = (subject: string) => acquirer().calls.filter((call) => call.subject === subject).map((call) => call.operation);

async function shopWithPayment() {
  const shop = await service.createShop({ shopName: 'Corner Bakery' });
  const created = await sellerClient(service.url, shop.apiKey).create(VALID_PAYMENT);
  expect(created.status).toBe(200);
  return { shop, paymentId: created.body.data.id as string };
}

type Shop = Awaited<ReturnType<typeof shopWithPayment>>['shop'];
const STOPS: [string, (shop: Shop) => Promise<unknown>][] = [
  ['the shop is deactivated', (shop) => admin.ok('mutation($id: ID!) { deactivateShop(id: $id, reason: "Chargebacks") { id } }', { id: shop.shop.id })],
  ['the shop is deleted', (shop) => admin.ok('mutation($id: ID!) { deleteShop(id: $id, reason: "Closed") { id } }', { id: shop.shop.id })],
  ['the seller is suspended', (shop) => admin.ok('mutation($id: ID!) { suspendSeller(id: $id, reason: "Fraud review") { id } }', { id: shop.seller.id })],
  ['the seller is inactive', (shop) => service.em().nativeUpdate(Seller, { id: shop.seller.id }, { status: SellerStatus.INACTIVE })],
];

const REFUSED = { message: 'This shop cannot take payments right now.', extensions: { code: 'SHOP_CANNOT_TAKE_PAYMENTS' } };

describe.each(STOPS)('when %s', (_case, stop) => {
  test('a card submission is refused before the acquirer is called; the payment stays payable later', async () => {
    const { shop, paymentId } = await shopWithPayment();
    await stop(shop);
    const res = await customer().pay(paymentId, '4242 4242 4242 4242');
    expect(res.body.errors?.[0]).toMatchObject(REFUSED);
    expect(callsAbout(paymentId)).toEqual([]);
    const payment = await service.em().findOneOrFail(Payment, paymentId);
    expect([payment.status, payment.checkoutStage, payment.cardLast4]).toEqual(['pending', 'card_required', null]);
  });

  test('the checkout view says so and leads back to the shop with status=cancelled', async () => {
    const { shop, paymentId } = await shopWithPayment();
    await stop(shop);
    const view = (await customer().view(paymentId)).body.data.checkoutPayment;
    expect(view).toMatchObject({
      status: 'PENDING',
      acceptingPayments: false,
      redirectUrl: `https://shop.example.com/thanks?order=42&payment_id=${paymentId}&status=cancelled`,
    });
  });

  test('a 3-D Secure answer is refused before the acquirer is called', async () => {
    const { shop, paymentId } = await shopWithPayment();
    const challenged = await customer().pay(paymentId, '4000 0000 0000 3220');
    expect(challenged.body.data.submitCard.stage).toBe('AUTHENTICATION_REQUIRED');
    const { threeDsReference } = await service.em().findOneOrFail(Payment, paymentId);
    await stop(shop);
    const res = await customer().authenticate(paymentId, true);
    expect(res.body.errors?.[0]).toMatchObject(REFUSED);
    expect(callsAbout(threeDsReference!)).toEqual([]);
    expect((await service.em().findOneOrFail(Payment, paymentId)).checkoutStage).toBe('authentication_required');
  });
});

test('a shop that is active again takes the payment (the view says it accepts payments)', async () => {
  const { shop, paymentId } = await shopWithPayment();
  await admin.ok('mutation($id: ID!) { suspendSeller(id: $id, reason: "Review") { id } }', { id: shop.seller.id });
  await admin.ok('mutation($id: ID!) { reactivateSeller(id: $id) { id } }', { id: shop.seller.id });
  expect((await customer().view(paymentId)).body.data.checkoutPayment).toMatchObject({ acceptingPayments: true, redirectUrl: null });
  expect((await customer().pay(paymentId, '4242 4242 4242 4242')).body.data.submitCard.status).toBe('COMPLETED');
});

describe('a suspension racing a payment', () => {
  /** Submits the card and, while the acquirer is deciding, applies `stop`; answers the submission. */
  async function raceWith(stop: (shop: Shop) => Promise<unknown>, card = '4242 4242 4242 4242') {
    const { shop, paymentId } = await shopWithPayment();
    const submission = customer().pay(paymentId, card).then((res) => res);
    await eventually(async () => callsAbout(paymentId).includes('authorize'), 5000, 'the authorization to reach the acquirer');
    await stop(shop);
    return { paymentId, shop, res: await submission };
  }

  test.each(STOPS)('when %s during the authorization: the approval is voided, the payment fails shop_unavailable, nobody is credited', async (_case, stop) => {
    const { paymentId, res } = await raceWith(stop);
    expect(res.body.data.submitCard).toMatchObject({
      status: 'FAILED',
      failureCode: 'shop_unavailable',
      failureMessage: 'This shop cannot take payments right now. The payment was cancelled and your card will not be charged.',
      acceptingPayments: false,
    });
    expect(callsAbout(paymentId)).toEqual(['authorize', 'voidAuthorization']);
    const payment = await service.em().findOneOrFail(Payment, paymentId);
    expect([payment.status, payment.completedAt, payment.processorReference]).toEqual(['failed', null, expect.stringMatching(/^sim_auth_/)]);
    expect(await service.em().count(LedgerEntry, { paymentId })).toBe(0);
    // Like every move to failed, it writes payment.failed (delivered only to shops that chose it), never payment.completed.
    expect((await service.em().find(WebhookEvent, { paymentId })).map((e) => e.type)).toEqual(['payment.failed']);
  });

  test('a decline during a suspension is still a decline (nothing to void)', async () => {
    const { paymentId, res } = await raceWith(STOPS[2][1], '4000 0000 0000 0002');
    expect(res.body.data.submitCard).toMatchObject({ status: 'FAILED', failureCode: 'declined' });
    expect(callsAbout(paymentId)).toEqual(['authorize']);
  });
});
