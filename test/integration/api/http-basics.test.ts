import request from 'supertest';
import { sellerClient } from '../../support/seller-client';
import { useServiceWithShop, useTestService } from '../../support/test-service';

const app = useServiceWithShop();

describe('HTTP behaviour around the contract', () => {
  test('every response has an X-Request-Id that appears in its log line', async () => {
    const res = await sellerClient(app.service.url, app.apiKey).test();
    const id = res.headers['x-request-id'];
    expect(id).toMatch(/^req_[0-9A-Za-z]{20}$/);
    const line = app.service.logs.find((l) => l.requestId === id);
    expect(line).toMatchObject({ method: 'GET', path: '/api/v1/payments/test', status: 200 });
  });

  test('a sane incoming X-Request-Id is kept; a hostile one is replaced', async () => {
    const kept = await request(app.service.url).get('/healthz').set('X-Request-Id', 'lb-1234.abc');
    expect(kept.headers['x-request-id']).toBe('lb-1234.abc');
    const replaced = await request(app.service.url).get('/healthz').set('X-Request-Id', '<script>'.repeat(20));
    expect(replaced.headers['x-request-id']).toMatch(/^req_/);
  });

  test('API keys never reach the logs', async () => {
    await sellerClient(app.service.url, app.apiKey).test();
    expect(JSON.stringify(app.service.logs)).not.toContain(app.apiKey.slice(9));
  });

  test('unknown routes under /api/v1 -> 404 envelope (after authentication)', async () => {
    const res = await request(app.service.url).get('/api/v1/refunds').set('Authorization', `Bearer ${app.apiKey}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: 'Route not found' });
    expect((await request(app.service.url).get('/api/v1/refunds')).status).toBe(401);
  });

  test('unknown routes elsewhere -> 404 envelope', async () => {
    const res = await request(app.service.url).get('/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: 'Route not found' });
  });

  test.each([
    ['delete', '/api/v1/payments/pay_x', 'GET, HEAD'],
    ['put', '/api/v1/payments', 'GET, HEAD, POST'],
    ['post', '/api/v1/payments/test', 'GET, HEAD'],
  ] as const)('%s %s -> 405 with Allow: %s', async (method, path, allow) => {
    const res = await request(app.service.url)[method](path).set('Authorization', `Bearer ${app.apiKey}`);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(res.body).toEqual({ success: false, error: 'Method not allowed' });
  });

  test('API answers are JSON, never cached, with the usual security headers', async () => {
    const res = await sellerClient(app.service.url, app.apiKey).test();
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  test('GET /healthz -> 200 when PostgreSQL and Redis answer', async () => {
    const res = await request(app.service.url).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'up', redis: 'up', workers: { webhook: 'up', mail: 'up' } });
  });
});

describe('when the database is gone', () => {
  const broken = useTestService();
  let key: string;
  beforeAll(async () => {
    key = (await broken.createShop()).apiKey;
    await broken.database.orm.close(true);
  });

  test('a server fault -> 500 An unexpected error occurred, no stack trace, logged with the request id', async () => {
    const res = await sellerClient(broken.url, key).test();
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ success: false, error: 'An unexpected error occurred' });
    const logged = broken.logs.find((l) => l.requestId === res.headers['x-request-id'] && l.level === 50);
    expect(logged).toBeDefined();
  });

  test('GET /healthz -> 503', async () => {
    const res = await request(broken.url).get('/healthz');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'unavailable', database: 'down' });
  });
});
