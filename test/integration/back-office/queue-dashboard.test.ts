import request from 'supertest';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { AdminToken } from '../../../src/modules/admins/admin-token.entity';
import { adminClient } from '../../support/admin-client';
import { adminSignedIn } from '../../support/admin-session';
import { useTestService } from '../../support/test-service';

const service = useTestService();
let token: string;
let apiKey: string;
let expired: string;

beforeAll(async () => {
  token = (await adminClient(service)).token;
  apiKey = (await service.createShop()).apiKey;
  const old = await adminClient(service, AdminRole.SUPPORT);
  await service.em().nativeUpdate(AdminToken, { admin: old.admin.id }, { expiresAt: new Date(Date.now() - 1000) });
  expired = old.token;
});

const basic = (password: string) => `Basic ${Buffer.from(`ops:${password}`).toString('base64')}`;

describe('the queue dashboard (Bull Board) at /admin/queues, behind the admin console session', () => {
  // Functions: the credentials exist only once beforeAll has run.
  test.each([
    ['no credentials', () => undefined],
    ['a seller key', () => `Bearer ${apiKey}`],
    ['a seller key as the password', () => basic(apiKey)],
    ['a wrong admin token', () => basic(`adm_${'0'.repeat(64)}`)],
    ['an expired admin token', () => basic(expired)],
    ['a live admin token as the Basic password', () => basic(token)],
    ['a live admin token as a bearer', () => `Bearer ${token}`],
  ])('%s -> 401, and no password prompt to guess at', async (_name, credentials) => {
    const authorization = credentials();
    const req = request(service.url).get('/admin/queues/api/queues');
    const res = await (authorization ? req.set('Authorization', authorization) : req);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toContain('webhook-deliveries');
  });

  test('a browser without the session is sent to /admin to sign in', async () => {
    const page = await request(service.url).get('/admin/queues').set('Accept', 'text/html');
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('/admin');
  });

  test('an admin signed in at /admin, of any role, sees the webhook and refund queues', async () => {
    const support = await adminSignedIn(service, AdminRole.SUPPORT);
    const page = await request(service.url).get('/admin/queues').set('Cookie', support.session.cookie);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    // Nothing from another host (Bull Board's own template links web fonts from fonts.googleapis.com).
    expect(page.text).toContain('static/js/');
    expect(page.text).not.toMatch(/(https?:)?\/\/[a-z]/i);
    const api = await request(service.url).get('/admin/queues/api/queues').set('Cookie', support.session.cookie);
    expect(api.status).toBe(200);
    expect(api.body.queues.map((q: { name: string }) => q.name)).toEqual(expect.arrayContaining(['refunds', 'webhook-deliveries']));
  });
});
