import request from 'supertest';

/** A seller's HTTP client: every call carries `Authorization: Bearer <apiKey>`. */
export function sellerClient(baseUrl: string, apiKey: string) {
  const auth = { Authorization: `Bearer ${apiKey}` };
  return {
    create: (body: unknown, headers: Record<string, string> = {}) =>
      request(baseUrl).post('/api/v1/payments').set(auth).set(headers).send(body as object),
    /** Sends `body` exactly as given, as application/json. */
    createRaw: (body: string, headers: Record<string, string> = {}) =>
      request(baseUrl).post('/api/v1/payments').set(auth).set('Content-Type', 'application/json').set(headers).send(body),
    retrieve: (id: string) => request(baseUrl).get(`/api/v1/payments/${id}`).set(auth),
    list: (query = '') => request(baseUrl).get(`/api/v1/payments${query}`).set(auth),
    test: () => request(baseUrl).get('/api/v1/payments/test').set(auth),
  };
}

export const VALID_PAYMENT = Object.freeze({
  amount: 1234,
  currency: 'usd',
  return_url: 'https://shop.example.com/thanks?order=42',
});
