import { AdminRole } from '../../../src/modules/admins/admin-role';
import { SHOPPER_FAILURE_OF, SHOPPER_MESSAGES } from '../../../src/modules/checkout/failure-messages';
import { Payment } from '../../../src/modules/payments/payment.entity';
import type { FailureCode } from '../../../src/platform/processor/card-processor';
import { adminClient, type AdminClient } from '../../support/admin-client';
import { HOLDER } from '../../support/adyen-stand-in';
import { adyenSuite } from '../../support/adyen-suite';
import { CARD, checkoutClient } from '../../support/checkout-client';
import { dashboard, signUpSeller, type DashboardSession } from '../../support/dashboard-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

/*
 * What a shopper is told about a failed card payment (docs/checkout.md, "What the customer is told"): one of
 * three categories in plain words, never the precise reason, which stays for the seller (dashboard) and admins.
 */

jest.setTimeout(60_000);

const service = useTestService();
let seller: { apiKey: string; session: DashboardSession };
let support: AdminClient;

beforeAll(async () => {
  const signedUp = await signUpSeller(service.url);
  seller = { apiKey: signedUp.apiKey, session: signedUp.session };
  support = await adminClient(service, AdminRole.SUPPORT);
});

/** How each precise failure comes about with the simulator's test cards (docs/checkout.md, "Test cards"). */
const FAILURES: [FailureCode, (id: string) => Promise<unknown>][] = [
  ['card_declined', (id) => checkoutClient(service.url).pay(id, '4000000000000002')],
  ['insufficient_funds', (id) => checkoutClient(service.url).pay(id, '4000000000009995')],
  ['expired_card', (id) => checkoutClient(service.url).pay(id, '4000000000000069')],
  ['incorrect_cvc', (id) => checkoutClient(service.url).pay(id, '4000000000000127')],
  ['fraudulent', (id) => checkoutClient(service.url).pay(id, '4100000000000019')],
  ['processing_error', (id) => checkoutClient(service.url).pay(id, '4000000000000119')],
  ['authentication_failed', async (id) => {
    await checkoutClient(service.url).pay(id, '4000000000003220');
    return checkoutClient(service.url).authenticate(id, false);
  }],
];

test('every precise failure code has a category', () => {
  expect(FAILURES.map(([code]) => code).sort()).toEqual(Object.keys(SHOPPER_FAILURE_OF).sort());
});

/** Words that give a precise reason away. */
const PRECISE_WORDS = /security code|cvc|fraud|funds|balance|expired|insufficient|incorrect/i;

test.each(FAILURES)('%s: the checkout shows only its category; the seller and admins see the precise code', async (code, fail) => {
  const id = (await sellerClient(service.url, seller.apiKey).create(VALID_PAYMENT)).body.data.id as string;
  await fail(id);
  const category = SHOPPER_FAILURE_OF[code];

  // The public view, as the checkout page reads it (the allow-listed document).
  const page = await checkoutClient(service.url).view(id);
  expect(page.body.data.checkoutPayment).toMatchObject({ status: 'FAILED', failureCode: category, failureMessage: SHOPPER_MESSAGES[category] });
  if (code !== category) expect(page.text).not.toContain(code);
  expect(page.body.data.checkoutPayment.failureMessage).not.toMatch(PRECISE_WORDS);
  // A later submission is answered with the same view.
  const again = await checkoutClient(service.url).pay(id, '4242424242424242');
  expect(again.body.data.submitCard).toEqual(page.body.data.checkoutPayment);

  // The seller's dashboard, signed in.
  const detail = await dashboard(service.url, 'PaymentDetail', { id }, seller.session);
  expect(detail.body.errors).toBeUndefined();
  expect(detail.body.data.payment).toMatchObject({ status: 'FAILED', failureCode: code });

  // Admins.
  expect((await support.ok(`query ($id: ID!) { payment(id: $id) { status failureCode } }`, { id })).payment).toEqual({ status: 'FAILED', failureCode: code });
  expect((await service.em().findOneOrFail(Payment, id)).failureCode).toBe(code);
});

describe('Adyen: a refusal without a refusalReasonCode', () => {
  const suite = adyenSuite('shopper-messages-adyen');

  test.each([
    ['CVC Declined', 'incorrect_cvc'],
    ['Not enough balance', 'insufficient_funds'],
    ['Issuer Unavailable', 'processing_error'],
    ['Something Adyen added later', 'card_declined'],
  ])('reason text "%s" is mapped by the refusal table (%s); the shopper sees only its category', async (reason, code) => {
    const shop = await suite.service.createShop();
    const id = (await sellerClient(suite.service.url, shop.apiKey).create(VALID_PAYMENT)).body.data.id as string;
    const answer = await checkoutClient(suite.service.url).run('SubmitCard', { id, card: { number: '4111111111111111', ...CARD, nameOnCard: HOLDER.refuseByReasonOnly(reason) } });
    const category = SHOPPER_FAILURE_OF[code as FailureCode];
    expect(answer.body.data.submitCard).toMatchObject({ status: 'FAILED', failureCode: category, failureMessage: SHOPPER_MESSAGES[category] });
    expect((await suite.service.em().findOneOrFail(Payment, id)).failureCode).toBe(code);
    const sent = suite.adyen.requestsTo('/payments').find((r) => r.body.reference === id)!;
    expect((sent.body.paymentMethod as { holderName: string }).holderName).toBe(HOLDER.refuseByReasonOnly(reason));
  });
});
