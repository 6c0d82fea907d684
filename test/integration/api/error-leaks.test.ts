import request from 'supertest';
import { adminClient, graphql } from '../../support/admin-client';
import { CARD, CHECKOUT_DOCUMENT } from '../../support/checkout-client';
import { sellerClient, VALID_PAYMENT } from '../../support/seller-client';
import { useTestService } from '../../support/test-service';

/**
 * No answer of any kind carries a stack trace or a field suggestion to a non-admin,
 * whatever NODE_ENV says (Apollo and Express both add stack traces unless NODE_ENV=production). Each
 * service here starts with NODE_ENV as an operator who never set it would have it.
 */

/** What a stack trace or a schema hint looks like in an answer. */
function expectNothingLeaked(what: string, body: string): void {
  const leaks = [/stacktrace/i, /\bat .+:\d+:\d+/, /node_modules/, /\/src\//, /\.ts\b/, /Did you mean/i, /"exception"/];
  for (const leak of leaks) {
    if (leak.test(body)) throw new Error(`${what}: the answer matches ${leak}: ${body.slice(0, 600)}`);
  }
}

type Send = () => request.Test;

function setNodeEnv(value: string | undefined): void {
  if (value === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = value;
}

describe.each([['development'], [undefined]])('with NODE_ENV=%s', (nodeEnv) => {
  let sellerKey: string;
  let paymentId: string;

  // Express and Apollo read NODE_ENV as the service starts: it is changed around the fixture's start only (Jest
  // runs beforeAll hooks in the order they are declared, and the next one even if the start failed).
  let saved: string | undefined;
  beforeAll(() => {
    saved = process.env.NODE_ENV;
    setNodeEnv(nodeEnv);
  });
  const service = useTestService({ GRAPHQL_MAX_DEPTH: '5', GRAPHQL_MAX_COST: '500' });
  beforeAll(async () => {
    setNodeEnv(saved);
    sellerKey = (await service.createShop()).apiKey;
    paymentId = (await sellerClient(service.url, sellerKey).create(VALID_PAYMENT)).body.data.id;
  });

  const post = (authorization: string | undefined, body: unknown, contentType = 'application/json') => {
    const req = request(service.url).post('/graphql').set('Content-Type', contentType);
    if (authorization) req.set('Authorization', authorization);
    return req.send(body as object);
  };
  const seller = (body: unknown) => post(`Bearer ${sellerKey}`, body);
  const checkout = (operationName: string, variables: unknown) => post(undefined, { query: CHECKOUT_DOCUMENT, operationName, variables });

  /** Every answer is checked whole (headers too), and must be an error answer of the expected code. */
  async function expectClean(what: string, send: Send, code: string): Promise<void> {
    const res = await send();
    expectNothingLeaked(what, JSON.stringify(res.headers) + res.text);
    const codes = new Set((res.body?.errors ?? []).map((e: { extensions?: { code?: string } }) => e.extensions?.code));
    expect([what, [...codes]]).toEqual([what, [code]]);
  }

  describe('a seller', () => {
    test.each<[string, () => unknown, string]>([
      ['a parse error', () => ({ query: '{ currentShop { id ' }), 'GRAPHQL_PARSE_FAILED'],
      ['an unknown field close to a seller field', () => ({ query: '{ currentShp { id } }' }), 'GRAPHQL_VALIDATION_FAILED'],
      ['an unknown field close to admin-only fields', () => ({ query: '{ shopz { id } }' }), 'GRAPHQL_VALIDATION_FAILED'],
      ['an unknown argument', () => ({ query: '{ payments(limt: 5) { pagination { total } } }' }), 'GRAPHQL_VALIDATION_FAILED'],
      ['an unknown enum value in the document', () => ({ query: '{ payments(status: PENDNG) { pagination { total } } }' }), 'GRAPHQL_VALIDATION_FAILED'],
      ['an unknown type', () => ({ query: 'query ($s: PaymentStatu) { payments(status: $s) { pagination { total } } }' }), 'GRAPHQL_VALIDATION_FAILED'],
      ['an unknown enum value in a variable', () => ({ query: 'query ($s: PaymentStatus) { payments(status: $s) { pagination { total } } }', variables: { s: 'PENDNG' } }), 'BAD_USER_INPUT'],
      ['a variable of the wrong type', () => ({ query: 'query ($l: Int) { payments(limit: $l) { pagination { total } } }', variables: { l: 'ten' } }), 'BAD_USER_INPUT'],
      ['introspection', () => ({ query: '{ __schema { types { name } } }' }), 'INTROSPECTION_NOT_ALLOWED'],
      ['a query too deep', () => ({ query: '{ payment(id: "pay_x") { shop { seller { shop { seller { id } } } } } }' }), 'QUERY_TOO_DEEP'],
      ['a query too costly', () => ({ query: '{ payments(limit: 100) { items { shop { seller { id } } refunds { id } } } }' }), 'QUERY_TOO_COSTLY'],
      ['an admin-only field (a resolver refusal)', () => ({ query: '{ shops { pagination { total } } }' }), 'FORBIDDEN'],
      ['another shop\'s or an unknown payment (a resolver error)', () => ({ query: '{ payment(id: "pay_000000000000000000000000") { id } }' }), 'PAYMENT_NOT_FOUND'],
      ['no operation', () => ({ query: '' }), 'BAD_REQUEST'],
      ['an operation name that is not in the document', () => ({ query: '{ currentShop { id } }', operationName: 'Nope' }), 'OPERATION_RESOLUTION_FAILURE'],
      ['variables that are not an object', () => ({ query: '{ currentShop { id } }', variables: [1] }), 'BAD_REQUEST'],
    ])('%s', async (what, body, code) => {
      await expectClean(what, () => seller(body()), code);
    });

    test('before GraphQL runs: a wrong key, malformed JSON, a body too large', async () => {
      await expectClean('a wrong key', () => post(`Bearer svc_live_${'0'.repeat(64)}`, { query: '{ currentShop { id } }' }), 'INVALID_API_KEY');
      await expectClean('malformed JSON', () => post(`Bearer ${sellerKey}`, '{"query": ', 'application/json'), 'INVALID_JSON');
      await expectClean('a body too large', () => seller({ query: `{ currentShop { id } } # ${'x'.repeat(70_000)}` }), 'BODY_TOO_LARGE');
      await expectClean('a GET without a query', () => request(service.url).get('/graphql').set('Authorization', `Bearer ${sellerKey}`).set('Apollo-Require-Preflight', '1'), 'BAD_REQUEST');
    });
  });

  describe('the public (no credentials)', () => {
    test('any document but the checkout one, malformed JSON, a batch: refused before GraphQL, nothing leaked', async () => {
      await expectClean('a parse error', () => post(undefined, { query: '{ currentShop ' }), 'OPERATION_NOT_ALLOWED');
      await expectClean('introspection', () => post(undefined, { query: '{ __schema { types { name } } }' }), 'OPERATION_NOT_ALLOWED');
      await expectClean('malformed JSON', () => post(undefined, '{"query', 'application/json'), 'INVALID_JSON');
      await expectClean('a batch', () => post(undefined, [{ query: CHECKOUT_DOCUMENT, operationName: 'CheckoutPayment', variables: { id: paymentId } }]), 'OPERATION_NOT_ALLOWED');
    });

    test('pages and routes outside the API: a malformed checkout address, an unknown route', async () => {
      for (const path of ['/checkout/%zz', '/checkout/assets/%zz', '/admin/%zz', '/nope/%zz', '/api/v1/docs/%zz']) {
        const res = await request(service.url).get(path);
        expectNothingLeaked(path, JSON.stringify(res.headers) + res.text);
        expect([path, res.status < 500]).toEqual([path, true]);
      }
    });
  });

  describe('the checkout page\'s own operations', () => {
    test.each<[string, () => [string, unknown], string]>([
      ['a card with a misspelt field', () => ['SubmitCard', { id: paymentId, card: { numbr: '4242424242424242', ...CARD } }], 'BAD_USER_INPUT'],
      ['a card field of the wrong type', () => ['SubmitCard', { id: paymentId, card: { number: 4242, ...CARD } }], 'BAD_USER_INPUT'],
      ['a missing variable', () => ['CheckoutPayment', {}], 'BAD_USER_INPUT'],
      ['an invalid card number (a resolver error)', () => ['SubmitCard', { id: paymentId, card: { number: '4242424242424241', ...CARD } }], 'CARD_NUMBER_INVALID'],
      ['an unknown payment (a resolver error)', () => ['CheckoutPayment', { id: 'pay_000000000000000000000000' }], 'PAYMENT_NOT_FOUND'],
      ['an operation name not in the document', () => ['Nope', { id: paymentId }], 'OPERATION_NOT_ALLOWED'],
    ])('%s', async (what, operation, code) => {
      const [name, variables] = operation();
      await expectClean(what, () => checkout(name, variables), code);
    });
  });

  describe('an admin', () => {
    test('still gets suggestions (introspection is theirs anyway), but no stack trace', async () => {
      const admin = await adminClient(service);
      const res = await request(service.url).post('/graphql').set('Authorization', `Bearer ${admin.token}`).send({ query: '{ currentShp { id } }' });
      expect(res.body.errors[0].message).toMatch(/^Cannot query field "currentShp" on type "Query"\. Did you mean "currentShop"/);
      expect(res.text).not.toMatch(/stacktrace/);
      const parse = await graphql(service.url, `Bearer ${admin.token}`, '{ shops { ');
      expect(JSON.stringify(parse.errors)).not.toMatch(/stacktrace/);
    });
  });

  test('refused queries (introspection, depth, cost) are logged below error level', async () => {
    const before = service.logs.length;
    for (const query of ['{ __type(name: "Refund") { name } }', '{ payment(id: "pay_x") { shop { seller { shop { seller { id } } } } } }', '{ payments(limit: 100) { items { shop { seller { id } } refunds { id } } } }']) {
      expect((await seller({ query })).status).toBeGreaterThanOrEqual(400);
    }
    const lines = service.logs.slice(before).filter((line) => line.msg !== 'request');
    expect(lines.filter((line) => Number(line.level) >= 50)).toEqual([]);
    const refused = lines.filter((line) => ['INTROSPECTION_NOT_ALLOWED', 'QUERY_TOO_DEEP', 'QUERY_TOO_COSTLY'].includes(String(line.code)));
    expect(refused.map((line) => [line.code, line.level])).toEqual([
      ['INTROSPECTION_NOT_ALLOWED', 40],
      ['QUERY_TOO_DEEP', 40],
      ['QUERY_TOO_COSTLY', 40],
    ]);
  });
});

describe('GRAPHQL_STACK_TRACES=1 (local debugging, localhost BASE_URL only)', () => {
  const service = useTestService({ BASE_URL: 'http://localhost:3000', GRAPHQL_STACK_TRACES: '1' });

  test('adds the stack trace to GraphQL errors, and nothing else changes', async () => {
    const { apiKey } = await service.createShop();
    const answer = await graphql(service.url, `Bearer ${apiKey}`, '{ currentShop { id ');
    expect(answer.errors).toHaveLength(1);
    expect(answer.errors![0]).toMatchObject({ message: 'Syntax Error: Expected Name, found <EOF>.', extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
    expect((answer.errors![0].extensions as { stacktrace?: string[] }).stacktrace?.join('\n')).toMatch(/GraphQLError/);
  });
});
