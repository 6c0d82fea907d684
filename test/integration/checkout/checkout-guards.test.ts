import request from 'supertest';
import { TEST_CARDS } from '../../../src/platform/processor/simulated-acquirer';
import { checkoutClient, CHECKOUT_DOCUMENT } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useServiceWithShop, useTestService } from '../../support/test-service';

/** Every test card of the simulator, from its own table. */
const CARD_NUMBERS = Object.keys(TEST_CARDS);

describe('card-testing defence', () => {
  const service = useTestService({ CHECKOUT_SUBMISSIONS_PER_CLIENT: '4', CHECKOUT_DECLINES_PER_CLIENT: '2', CHECKOUT_WINDOW_SECONDS: '600' });

  test('after a burst of declines from one address, further card submissions are refused with 429', async () => {
    const seller = sellerClient(service.url, (await service.createShop()).apiKey);
    const customer = checkoutClient(service.url);
    const pay = async (card: string) => customer.pay((await seller.create(VALID_PAYMENT)).body.data.id, card);
    expect((await pay('4000000000000002')).body.data.submitCard.status).toBe('FAILED');
    expect((await pay('4000000000000002')).body.data.submitCard.status).toBe('FAILED');
    const refused = await pay('4242424242424242');
    expect(refused.body.errors[0]).toMatchObject({ message: 'Too many payment attempts from here. Please try again later.', extensions: { code: 'CHECKOUT_RATE_LIMITED', status: 429 } });
  });
});

describe('card submissions per client address over a sliding window', () => {
  const service = useTestService({ CHECKOUT_SUBMISSIONS_PER_CLIENT: '3' });

  test('the 4th submission in the window is refused and the payment stays payable', async () => {
    const seller = sellerClient(service.url, (await service.createShop()).apiKey);
    const customer = checkoutClient(service.url);
    for (let i = 0; i < 3; i++) {
      expect((await customer.pay((await seller.create(VALID_PAYMENT)).body.data.id, '4242424242424242')).body.data.submitCard.status).toBe('COMPLETED');
    }
    const id = (await seller.create(VALID_PAYMENT)).body.data.id;
    expect((await customer.pay(id, '4242424242424242')).body.errors[0].extensions.code).toBe('CHECKOUT_RATE_LIMITED');
    expect((await customer.view(id)).body.data.checkoutPayment).toMatchObject({ status: 'PENDING', stage: 'CARD_REQUIRED' });
  });
});

describe('public GraphQL: only the checkout operations', () => {
  const app = useServiceWithShop();

  const post = (body: unknown, authorization?: string) => {
    const req = request(app.service.url).post('/graphql').set('Content-Type', 'application/json');
    return (authorization ? req.set('Authorization', authorization) : req).send(body as object);
  };

  test.each([
    ['another query', { query: '{ currentShop { id } }' }],
    ['introspection', { query: '{ __schema { types { name } } }' }],
    ['the checkout document with an unknown operation name', { query: CHECKOUT_DOCUMENT, operationName: 'Nope' }],
    ['a changed checkout document', { query: `${CHECKOUT_DOCUMENT} `, operationName: 'CheckoutPayment', variables: { id: 'pay_x' } }],
    ['a batch', [{ query: CHECKOUT_DOCUMENT, operationName: 'CheckoutPayment', variables: { id: 'pay_x' } }]],
  ])('%s without credentials -> 401', async (_name, body) => {
    const res = await post(body);
    expect(res.status).toBe(401);
    expect(res.body.errors[0]).toMatchObject({ extensions: { code: 'OPERATION_NOT_ALLOWED' } });
  });

  test('a seller key may run other operations', async () => {
    const res = await post({ query: '{ currentShop { id } }' }, `Bearer ${app.apiKey}`);
    expect(res.status).toBe(200);
    expect(res.body.data.currentShop.id).toMatch(/^shop_/);
  });
});

describe('card numbers and security codes never reach the database or the logs', () => {
  const service = useTestService({ LOG_LEVEL: 'trace' });

  test('after paying with every test card, a scan of every table and every log line finds none', async () => {
    const seller = sellerClient(service.url, (await service.createShop()).apiKey);
    const customer = checkoutClient(service.url);
    for (const card of CARD_NUMBERS) {
      const id = (await seller.create(VALID_PAYMENT)).body.data.id;
      const view = (await customer.pay(id, card, { securityCode: '9731' })).body.data?.submitCard;
      if (view?.stage === 'AUTHENTICATION_REQUIRED') await customer.authenticate(id, true);
    }
    await customer.pay((await seller.create(VALID_PAYMENT)).body.data.id, '4242424242424241', { securityCode: '9731' });

    const tables = await service.em().getConnection().execute(`select tablename from pg_tables where schemaname = 'public'`);
    let dump = '';
    for (const { tablename } of tables) {
      dump += JSON.stringify(await service.em().getConnection().execute(`select * from "${tablename}"`));
    }
    const logs = JSON.stringify(service.logs);
    expect(dump).toContain('4242');
    for (const card of [...CARD_NUMBERS, '4242424242424241']) {
      expect(dump).not.toContain(card);
      expect(logs).not.toContain(card);
      expect(logs).not.toContain(card.slice(0, 12));
    }
    // As a standalone token: the digits may occur by chance inside a random hash, as the fraction of a timestamp
    // (`07:52:45.9731+00`) or as an API key's four random characters (`svc_live_9731`), all seen in full runs, so a
    // token right after a dot or an underscore does not count.
    const securityCode = /(^|[^0-9A-Za-z._])9731([^0-9A-Za-z]|$)/;
    // Sequence ids (ledger entries, audit entries, checkpoints) pass 9731 once the run's database is that full.
    const withoutSequenceIds = dump.replace(/"(\w+_)?id":"?\d+"?/g, '');
    expect(withoutSequenceIds).not.toMatch(securityCode);
    expect(logs).not.toMatch(securityCode);
  });
});
