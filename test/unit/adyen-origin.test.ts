import { loadConfig } from '../../src/shared/config';
import { createAcquirer } from '../../src/platform/processor/processors';
import { AdyenProcessor } from '../../src/platform/processor/adyen/adyen-processor';
import type { NotificationStore } from '../../src/platform/processor/adyen/notification-store';
import { AdyenStandIn } from '../support/adyen-stand-in';

/** Adyen's `origin` is the checkout page's: BASE_URL without its path, checked at start against what Adyen takes. */
let adyen: AdyenStandIn;
beforeAll(async () => {
  adyen = await new AdyenStandIn().start();
});
afterAll(() => adyen.close());
afterEach(() => expect(adyen.violations).toEqual([]));

/** authorize reads and writes nothing of ours: a statement runner that is never called is enough. */
const noSql = async () => {
  throw new Error('authorize ran a statement');
};

test('BASE_URL with a path: origin is its scheme, host and port only, and the request meets v71', async () => {
  const config = loadConfig({ ...adyen.env(), BASE_URL: 'https://shop.example.com:8443/pay/' });
  const processor = createAcquirer(config, noSql).processor;
  const result = await processor.authorize({
    paymentId: 'pay_origin_1',
    amount: 1000,
    currency: 'eur',
    card: { number: '4111111111111111', expMonth: 3, expYear: 2030, securityCode: '737' },
    returnUrl: 'https://shop.example.com:8443/pay/checkout/pay_origin_1/3ds-return',
    browser: { ip: '203.0.113.9', userAgent: 'Mozilla/5.0', acceptHeader: '*/*' },
  });
  expect(result.kind).toBe('approved');
  const sent = adyen.requestsTo('/payments').find((r) => r.body.reference === 'pay_origin_1')!.body;
  expect(sent.origin).toBe('https://shop.example.com:8443');
  expect(sent.browserInfo).toMatchObject({ userAgent: 'Mozilla/5.0', acceptHeader: '*/*', language: 'en', colorDepth: 24 });
});

test('without BASE_URL, the address the service listens on (as the service passes it) gives the origin', async () => {
  const config = loadConfig({ ...adyen.env(), PORT: '0' });
  const processor = createAcquirer(config, noSql, 'http://localhost:41234').processor;
  await processor.authorize({ paymentId: 'pay_origin_2', amount: 1000, currency: 'eur', card: { number: '4111111111111111', expMonth: 3, expYear: 2030, securityCode: '737' }, returnUrl: 'http://localhost:41234/checkout/pay_origin_2/3ds-return' });
  expect(adyen.requestsTo('/payments').find((r) => r.body.reference === 'pay_origin_2')!.body.origin).toBe('http://localhost:41234');
});

test('an origin Adyen would refuse (longer than 80 characters, or with a path) stops the start', () => {
  const config = loadConfig(adyen.env()).adyen!;
  const store = {} as NotificationStore;
  const long = `https://${'a'.repeat(64)}.example.com`;
  expect(long.length).toBeGreaterThan(80);
  expect(() => new AdyenProcessor(config, store, long)).toThrow(/longer than the 80 characters/);
  expect(() => new AdyenProcessor(config, store, 'https://pay.example.com/checkout')).toThrow(/without a path/);
  expect(() => new AdyenProcessor(config, store, 'https://pay.example.com')).not.toThrow();
});
