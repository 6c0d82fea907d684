import { Payment } from '../../../src/modules/payments/payment.entity';
import { adyenSuite } from '../../support/adyen-suite';
import { checkoutClient } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService, type TestService } from '../../support/test-service';

/*
 * A developer's shop on their own machine (docs/decisions/0023-local-return-in-test-mode.md): in test mode the checkout
 * sends the customer back to an https return URL on localhost, 127.0.0.1 or [::1] over http; with a real acquirer, and
 * for every other host, as the seller gave it. The REST API is untouched: return_url must still be https, with the same
 * error, and the payment keeps the URL as sent.
 */
jest.setTimeout(60_000);

const LOCAL_RETURN = 'https://localhost:4000/thanks?order=7';

async function newPayment(service: TestService, returnUrl = LOCAL_RETURN): Promise<string> {
  const shop = await service.createShop();
  const created = await sellerClient(service.url, shop.apiKey).create({ ...VALID_PAYMENT, return_url: returnUrl });
  expect(created.status).toBe(200);
  return created.body.data.id as string;
}

describe('test mode (the simulated acquirer)', () => {
  const service = useTestService();

  test('paid, declined or cancelled: the customer goes back to the local shop over http, with payment_id and status', async () => {
    const customer = checkoutClient(service.url);
    const paid = await newPayment(service);
    expect((await customer.pay(paid, '4242424242424242')).body.data.submitCard).toMatchObject({
      status: 'COMPLETED', testMode: true, redirectUrl: `http://localhost:4000/thanks?order=7&payment_id=${paid}&status=completed`,
    });
    expect((await customer.view(paid)).body.data.checkoutPayment.redirectUrl).toBe(`http://localhost:4000/thanks?order=7&payment_id=${paid}&status=completed`);

    const declined = await newPayment(service, 'https://127.0.0.1:4000/thanks');
    expect((await customer.pay(declined, '4000000000000002')).body.data.submitCard.redirectUrl).toBe(`http://127.0.0.1:4000/thanks?payment_id=${declined}&status=failed`);

    const cancelled = await newPayment(service, 'https://[::1]:4000/thanks');
    expect((await customer.cancel(cancelled)).body.data.cancelCheckout.redirectUrl).toBe(`http://[::1]:4000/thanks?payment_id=${cancelled}&status=cancelled`);

    // The payment keeps the return URL the seller sent.
    expect((await service.em().findOneOrFail(Payment, paid)).returnUrl).toBe(LOCAL_RETURN);
  });

  test('any other host keeps https, however much of it reads "localhost"', async () => {
    const customer = checkoutClient(service.url);
    for (const returnUrl of ['https://shop.example.com/thanks', 'https://localhost.evil.example/thanks', 'https://shop.localhost:4443/thanks']) {
      const id = await newPayment(service, returnUrl);
      expect((await customer.cancel(id)).body.data.cancelCheckout.redirectUrl).toBe(`${returnUrl}?payment_id=${id}&status=cancelled`);
    }
  });

  test('the REST API still takes only https return URLs, with the same error, for localhost too', async () => {
    const shop = await service.createShop();
    for (const returnUrl of ['http://localhost:4000/thanks', 'http://127.0.0.1:4000/thanks']) {
      const refused = await sellerClient(service.url, shop.apiKey).create({ ...VALID_PAYMENT, return_url: returnUrl });
      expect([refused.status, refused.text]).toEqual([400, '{"success":false,"error":"Return URL must be a valid HTTPS URL"}']);
    }
    const created = await sellerClient(service.url, shop.apiKey).create({ ...VALID_PAYMENT, return_url: LOCAL_RETURN });
    expect(Object.keys(created.body.data)).toEqual(['id', 'amount', 'currency', 'status', 'checkout_url', 'customer_email', 'customer_name', 'metadata', 'created_at']);
    expect(created.text).not.toContain('http://localhost');
  });
});

describe('with a real acquirer (Adyen)', () => {
  const suite = adyenSuite('local-return');

  test('a return URL on localhost is followed as given: https, paid or cancelled', async () => {
    const customer = checkoutClient(suite.service.url);
    const paid = await newPayment(suite.service);
    expect((await customer.pay(paid, '4111111111111111')).body.data.submitCard).toMatchObject({
      status: 'COMPLETED', testMode: false, redirectUrl: `${LOCAL_RETURN}&payment_id=${paid}&status=completed`,
    });
    const cancelled = await newPayment(suite.service, 'https://127.0.0.1:4000/thanks');
    expect((await customer.cancel(cancelled)).body.data.cancelCheckout.redirectUrl).toBe(`https://127.0.0.1:4000/thanks?payment_id=${cancelled}&status=cancelled`);
  });
});
