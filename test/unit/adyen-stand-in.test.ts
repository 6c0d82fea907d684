import { AdyenStandIn } from '../support/adyen-stand-in';

/** The stand-in must be able to fail a test: a request that breaks Adyen's published schema is refused and recorded. */
let adyen: AdyenStandIn;
beforeAll(async () => {
  adyen = await new AdyenStandIn().start();
});
afterAll(() => adyen.close());

const payment = () => ({
  merchantAccount: adyen.credentials.merchantAccount,
  reference: 'pay_1',
  amount: { currency: 'EUR', value: 1000 },
  paymentMethod: { type: 'scheme', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030', cvc: '737' },
  returnUrl: 'https://pay.example.test/checkout/pay_1/3ds-return',
});

async function post(path: string, body: unknown, headers: Record<string, string> = { 'Idempotency-Key': 'k1' }) {
  const response = await fetch(`${adyen.url}/v71${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': adyen.credentials.apiKey, ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

test('a valid card payment is answered from the document\'s example', async () => {
  const answer = await post('/payments', payment());
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ resultCode: 'Authorised', merchantReference: 'pay_1' });
  expect(answer.body.pspReference).toMatch(/^[A-Z0-9]{16}$/);
  expect(adyen.violations).toEqual([]);
});

test.each([
  ['a string amount', { amount: { currency: 'EUR', value: '1000' } }, '/amount/value must be integer'],
  ['a lower-case currency', { amount: { currency: 'eur', value: 1000 } }, 'upper-case ISO 4217'],
  ['no reference', { reference: undefined }, "must have required property 'reference'"],
  ['an unknown channel', { channel: 'Phone' }, '/channel must be equal to one of the allowed values'],
])('%s is refused (422) and recorded as a violation', async (_name, change, problem) => {
  adyen.violations.length = 0;
  const answer = await post('/payments', { ...payment(), ...change, reference: 'reference' in change ? undefined : 'pay_2' });
  expect(answer.status).toBe(422);
  expect(adyen.violations.join('\n')).toContain(problem);
  adyen.violations.length = 0;
});

test('a request without an Idempotency-Key is a violation; the same key answers the first result', async () => {
  expect((await post('/payments', payment(), {})).status).toBe(422);
  expect(adyen.violations.join()).toContain('no Idempotency-Key');
  adyen.violations.length = 0;
  const first = await post('/payments', { ...payment(), reference: 'pay_3' }, { 'Idempotency-Key': 'pay_3' });
  const again = await post('/payments', { ...payment(), reference: 'pay_3' }, { 'Idempotency-Key': 'pay_3' });
  expect(again.body.pspReference).toBe(first.body.pspReference);
});

test('a wrong API key is refused like Adyen does (401)', async () => {
  expect((await post('/payments', payment(), { 'X-API-Key': 'wrong', 'Idempotency-Key': 'k9' })).status).toBe(401);
});
