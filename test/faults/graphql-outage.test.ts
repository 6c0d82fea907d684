import request from 'supertest';
import { useOwnPostgres } from '../support/postgres-server';
import { sellerClient, VALID_PAYMENT } from '../support/seller-client';
import { useTestService } from '../support/test-service';

jest.setTimeout(60_000);

/**
 * PostgreSQL away while a GraphQL document runs: the answer is GraphQL's (HTTP 200, the error UNAVAILABLE with
 * status 503), and like a REST 503 it says when to try again in Retry-After. The seller's API key is already in
 * the credential cache, so the request gets past authentication and fails in its resolver.
 */
const pg = useOwnPostgres();
const service = useTestService(() => ({ DATABASE_URL: pg.url }));

test('a query whose resolver finds the database away answers UNAVAILABLE with Retry-After, and reads again once it is back', async () => {
  const { apiKey } = await service.createShop();
  const paymentId = (await sellerClient(service.url, apiKey).create(VALID_PAYMENT)).body.data.id as string;
  const query = () =>
    request(service.url)
      .post('/graphql')
      .set('Authorization', `Bearer ${apiKey}`)
      .send({ query: 'query ($id: ID!) { payment(id: $id) { id } }', variables: { id: paymentId } });
  const before = await query();
  expect(before.body).toEqual({ data: { payment: { id: paymentId } } });
  expect(before.headers['retry-after']).toBeUndefined();

  pg.stop('fast');
  try {
    const during = await query();
    expect(during.status).toBe(200);
    expect(during.body.errors?.[0]?.extensions).toEqual({ code: 'UNAVAILABLE', status: 503 });
    expect(during.headers['retry-after']).toBe('5');
  } finally {
    pg.start();
  }
  let after = await query();
  for (let tries = 0; tries < 20 && after.body.errors; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    after = await query();
  }
  expect(after.body).toEqual({ data: { payment: { id: paymentId } } });
  expect(after.headers['retry-after']).toBeUndefined();
});
