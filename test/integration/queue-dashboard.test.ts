import request from 'supertest';
import { adminClient } from '../support/admin-client';
import { startTestService, type TestService } from '../support/test-service';

let service: TestService;
let token: string;
let apiKey: string;

beforeAll(async () => {
  service = await startTestService();
  token = (await adminClient(service)).token;
  apiKey = (await service.createShop()).apiKey;
});
afterAll(() => service.stop());

const basic = (password: string) => `Basic ${Buffer.from(`ops:${password}`).toString('base64')}`;

describe('the queue dashboard (Bull Board) at /admin/queues', () => {
  test.each([
    ['no credentials', undefined],
    ['a seller key', `Bearer ${apiKey}`],
    ['a seller key as the password', basic(apiKey)],
    ['a wrong admin token', basic(`adm_${'0'.repeat(64)}`)],
  ])('%s -> 401 asking for Basic credentials', async (_name, authorization) => {
    const req = request(service.url).get('/admin/queues');
    const res = await (authorization ? req.set('Authorization', authorization) : req);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm="admin queues"/);
    expect(JSON.stringify((await request(service.url).get('/admin/queues/api/queues')).body)).not.toContain('webhook-deliveries');
  });

  test('an admin (token as the Basic password) sees the webhook and refund queues', async () => {
    const page = await request(service.url).get('/admin/queues').set('Authorization', basic(token));
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    // Nothing from another host (Bull Board's own template links web fonts from fonts.googleapis.com).
    expect(page.text).toContain('static/js/');
    expect(page.text).not.toMatch(/(https?:)?\/\/[a-z]/i);
    const api = await request(service.url).get('/admin/queues/api/queues').set('Authorization', `Bearer ${token}`);
    expect(api.status).toBe(200);
    expect(api.body.queues.map((q: { name: string }) => q.name).sort()).toEqual(['refunds', 'webhook-deliveries']);
  });
});
