import { LedgerEntry } from '../../../src/modules/ledger/ledger-entry.entity';
import { WebhookEvent } from '../../../src/modules/webhooks/webhook-event.entity';
import { Payment } from '../../../src/modules/payments/payment.entity';
import { SHOPPER_MESSAGES } from '../../../src/modules/checkout/failure-messages';
import { checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

const service = useTestService();
let seller: ReturnType<typeof sellerClient>;
let customer: ReturnType<typeof checkoutClient>;

beforeAll(async () => {
  seller = sellerClient(service.url, (await service.createShop({ shopName: 'Corner Bakery' })).apiKey);
  customer = checkoutClient(service.url);
});

async function newPayment(body: object = {}): Promise<string> {
  const res = await seller.create({ ...VALID_PAYMENT, ...body });
  expect(res.status).toBe(200);
  return res.body.data.id;
}

const entriesOf = (paymentId: string) => service.em().find(LedgerEntry, { paymentId }, { orderBy: { id: 'asc' } });

describe('paying on the hosted checkout', () => {
  test('the checkout view shows what the page needs and nothing about the customer', async () => {
    const id = await newPayment({ customer_email: 'ann@example.com', metadata: { secret: 'x' } });
    const res = await customer.view(id);
    expect(res.body.data.checkoutPayment).toEqual({
      id, amount: 1234, currency: 'usd', shopName: 'Corner Bakery', status: 'PENDING', stage: 'CARD_REQUIRED',
      failureCode: null, failureMessage: null, redirectUrl: null, acceptingPayments: true, authenticationUrl: null,
      // The simulated acquirer runs in the tests: the page shows its test-mode banner.
      testMode: true,
    });
    expect(res.text).not.toContain('ann@example.com');
  });

  test('an approved card completes the payment: completed_at, credit and fee, one outbox event, redirect', async () => {
    const id = await newPayment();
    const res = await customer.pay(id, '4242 4242 4242 4242');
    expect(res.body.data.submitCard).toMatchObject({
      status: 'COMPLETED', stage: 'FINISHED',
      redirectUrl: `https://shop.example.com/thanks?order=42&payment_id=${id}&status=completed`,
    });
    const retrieved = (await seller.retrieve(id)).body.data;
    expect(retrieved.status).toBe('completed');
    expect(Date.parse(retrieved.completed_at)).toBeGreaterThan(Date.parse(retrieved.created_at) - 1);

    const entries = await entriesOf(id);
    expect(entries.map((e) => [e.account, e.kind, e.amount])).toEqual([
      ['customer_funds', 'payment', -1234],
      ['seller_balance', 'payment', 1234],
      ['seller_balance', 'fee', -185],
      ['fee_revenue', 'fee', 185],
    ]);
    const events = await service.em().find(WebhookEvent, { paymentId: id });
    expect(events).toHaveLength(1);
    const body = JSON.parse(events[0].body);
    expect(body).toMatchObject({ id: events[0].id, event: 'payment.completed', sequence: 1, shop: { shop_name: 'Corner Bakery' } });
    expect(body.payment).toEqual(retrieved);
  });

  test('the card is summarised on the payment (brand, last four, expiry) for admins, not in REST', async () => {
    const id = await newPayment();
    await customer.pay(id, '4242424242424242', { expMonth: 7 });
    const payment = await service.em().findOneOrFail(Payment, id);
    expect([payment.cardBrand, payment.cardLast4, payment.cardExpMonth]).toEqual(['visa', '4242', 7]);
    expect(JSON.stringify((await seller.retrieve(id)).body)).not.toContain('4242');
  });

  test.each([
    ['4000000000000002', 'card_declined', 'declined'],
    ['4000000000009995', 'insufficient_funds', 'declined'],
    ['4000000000000069', 'expired_card', 'declined'],
    ['4000000000000127', 'incorrect_cvc', 'declined'],
    ['4000000000000119', 'processing_error', 'processing_error'],
    ['4100000000000019', 'fraudulent', 'declined'],
  ])('card %s is declined (%s): failed, reason recorded, the customer told only its category, no money moves', async (number, code, shown) => {
    const id = await newPayment();
    const view = (await customer.pay(id, number)).body.data.submitCard;
    expect(view).toMatchObject({ status: 'FAILED', failureCode: shown, failureMessage: SHOPPER_MESSAGES[shown as keyof typeof SHOPPER_MESSAGES] });
    const retrieved = (await seller.retrieve(id)).body.data;
    expect(retrieved).toMatchObject({ status: 'failed', completed_at: null });
    expect(retrieved).not.toHaveProperty('error');
    expect(await entriesOf(id)).toHaveLength(0);
    expect((await service.em().findOneOrFail(Payment, id)).failureCode).toBe(code);
  });

  test('a failed payment is final: a second card is answered with the outcome, never charged', async () => {
    const id = await newPayment();
    await customer.pay(id, '4000000000000002');
    const again = (await customer.pay(id, '4242424242424242')).body.data.submitCard;
    expect(again.status).toBe('FAILED');
    expect(await entriesOf(id)).toHaveLength(0);
  });

  test('3-D Secure challenge passed: completed, recorded as challenged', async () => {
    const id = await newPayment();
    expect((await customer.pay(id, '4000000000003220')).body.data.submitCard).toMatchObject({ status: 'PENDING', stage: 'AUTHENTICATION_REQUIRED' });
    expect((await customer.view(id)).body.data.checkoutPayment.stage).toBe('AUTHENTICATION_REQUIRED');
    expect((await customer.authenticate(id, true)).body.data.answerThreeDSecure.status).toBe('COMPLETED');
    expect((await service.em().findOneOrFail(Payment, id)).threeDsOutcome).toBe('challenged');
    expect(await entriesOf(id)).toHaveLength(4);
  });

  test('3-D Secure challenge failed: failed with authentication_failed', async () => {
    const id = await newPayment();
    await customer.pay(id, '4000000000003220');
    const view = (await customer.authenticate(id, false)).body.data.answerThreeDSecure;
    expect(view).toMatchObject({ status: 'FAILED', failureCode: 'authentication_failed' });
    expect((await service.em().findOneOrFail(Payment, id)).threeDsOutcome).toBe('failed');
  });

  test('frictionless 3-D Secure completes at once; authenticated-then-declined fails as card_declined', async () => {
    const frictionless = await newPayment();
    expect((await customer.pay(frictionless, '4000000032200000')).body.data.submitCard.status).toBe('COMPLETED');
    expect((await service.em().findOneOrFail(Payment, frictionless)).threeDsOutcome).toBe('frictionless');

    const declinedAfter = await newPayment();
    await customer.pay(declinedAfter, '4000008400001629');
    expect((await customer.authenticate(declinedAfter, true)).body.data.answerThreeDSecure).toMatchObject({ status: 'FAILED', failureCode: 'declined' });
    expect((await service.em().findOneOrFail(Payment, declinedAfter)).failureCode).toBe('card_declined');
  });

  test('an answer to a challenge that is not open changes nothing', async () => {
    const id = await newPayment();
    expect((await customer.authenticate(id, true)).body.data.answerThreeDSecure).toMatchObject({ status: 'PENDING', stage: 'CARD_REQUIRED' });
  });

  test('cancel returns to return_url with payment_id and status=cancelled; the payment stays pending', async () => {
    const id = await newPayment();
    const res = await customer.cancel(id);
    expect(res.body.data.cancelCheckout.redirectUrl).toBe(`https://shop.example.com/thanks?order=42&payment_id=${id}&status=cancelled`);
    expect((await seller.retrieve(id)).body.data.status).toBe('pending');
  });

  test.each([
    ['a number failing Luhn', { number: '4242424242424241' }, 'The card number is not valid.'],
    ['an expiry in the past', { number: '4242424242424242', expYear: 2020 }, 'The expiry date is not valid or is in the past.'],
    ['a 2-digit security code', { number: '4242424242424242', securityCode: '12' }, 'The security code must be 3 or 4 digits.'],
  ])('%s is refused before the acquirer is called', async (_name, card, message) => {
    const id = await newPayment();
    const { number, ...rest } = card as { number: string };
    const res = await customer.pay(id, number, rest);
    expect(res.body.errors[0]).toMatchObject({ message, extensions: { code: expect.stringMatching(/^CARD_/) } });
    expect((await service.em().findOneOrFail(Payment, id)).checkoutStage).toBe('card_required');
  });

  test('an unknown payment id -> Payment not found', async () => {
    const res = await customer.view('pay_000000000000000000000000');
    expect(res.body.errors[0]).toMatchObject({ message: 'Payment not found', extensions: { code: 'PAYMENT_NOT_FOUND' } });
  });
});
