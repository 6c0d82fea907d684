import request from 'supertest';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { adminSignedIn, type AdminSession } from '../../support/admin-session';
import { signUpSeller } from '../../support/dashboard-client';
import { useTestService } from '../../support/test-service';

/**
 * Cross-site requests against the queue dashboard (docs/admin.md, "The queue dashboard"). The admin is signed in
 * at /admin in their browser; another site makes that browser send requests to /admin/queues. Each attack below
 * is a request such a browser could send (a form's text/plain or form-encoded POST, a request without our CSRF
 * token, from another origin); none may change a queue. The queues are real (bull on Redis).
 */
const service = useTestService();
let admin: AdminSession;
beforeAll(async () => {
  admin = (await adminSignedIn(service, AdminRole.SUPPORT)).session;
});

const base = () => `${service.url}/admin/queues/api`;
const own = () => new URL(service.url).origin;

async function refundsQueue(): Promise<{ isPaused: boolean; counts: Record<string, number> }> {
  const res = await request(service.url).get('/admin/queues/api/queues').set('Cookie', admin.cookie);
  expect(res.status).toBe(200);
  return res.body.queues.find((q: { name: string }) => q.name === 'refunds');
}

const refused = (res: request.Response) => {
  expect(res.status).toBe(403);
  expect(res.body).toEqual({ success: false, error: "Refused: a change here must come from this site's own page, with the admin session's CSRF token" });
};

test('the page hands Bull Board its CSRF token: XSRF-TOKEN, the session\'s token, scoped to /admin/queues, Secure, SameSite=Strict', async () => {
  const page = await request(service.url).get('/admin/queues').set('Cookie', admin.cookie);
  expect(page.status).toBe(200);
  const cookie = ([] as string[]).concat(page.headers['set-cookie'] ?? []).find((c) => c.startsWith('XSRF-TOKEN='))!;
  expect(cookie.split(';')[0]).toBe(`XSRF-TOKEN=${admin.csrfToken}`);
  expect(cookie).toMatch(/; Path=\/admin\/queues/);
  expect(cookie).toMatch(/; Secure/);
  expect(cookie).toMatch(/; SameSite=Strict/);
  expect(cookie).not.toMatch(/HttpOnly/);
});

test('a cross-site form POST (text/plain, no token) adding a job is refused; no job is added', async () => {
  const before = await refundsQueue();
  const form = await request(base())
    .post('/queues/refunds/add')
    .set('Cookie', admin.cookie)
    .set('Origin', 'https://evil.example')
    .set('Content-Type', 'text/plain')
    .send('{"name":"x","data":{"refundId":"ref_forged"}}');
  refused(form);
  // The same body as a form encoding, and text/plain even with the token and our own origin: refused too.
  refused(await request(base()).post('/queues/refunds/add').set('Cookie', admin.cookie).type('form').send({ name: 'x' }));
  refused(await request(base()).post('/queues/refunds/add').set('Cookie', admin.cookie).set('Origin', own()).set('X-XSRF-TOKEN', admin.csrfToken).set('Content-Type', 'text/plain').send('{}'));
  expect((await refundsQueue()).counts).toEqual(before.counts);
});

test.each([
  ['no CSRF token', () => ({})],
  ['a wrong CSRF token', () => ({ 'X-XSRF-TOKEN': 'f'.repeat(64) })],
  ['the right token from another origin', () => ({ 'X-XSRF-TOKEN': admin.csrfToken, Origin: 'https://evil.example' })],
  ['the right token, the browser saying cross-site', () => ({ 'X-XSRF-TOKEN': admin.csrfToken, 'Sec-Fetch-Site': 'cross-site' })],
  ['the right token, the browser saying same-site (a sibling subdomain)', () => ({ 'X-XSRF-TOKEN': admin.csrfToken, 'Sec-Fetch-Site': 'same-site' })],
])('pausing a queue with the session cookie and %s is refused; the queue runs on', async (_name, headers) => {
  const res = await request(base()).put('/queues/refunds/pause').set('Cookie', admin.cookie).set(headers());
  refused(res);
  expect((await refundsQueue()).isPaused).toBe(false);
});

test("Bull Board's own request (same origin, X-XSRF-TOKEN from its cookie) pauses and resumes the queue for an owner; the console's X-CSRF-Token works too", async () => {
  const owner = (await adminSignedIn(service, AdminRole.OWNER)).session;
  const pause = await request(base()).put('/queues/refunds/pause').set('Cookie', owner.cookie).set('Origin', own()).set('Sec-Fetch-Site', 'same-origin').set('X-XSRF-TOKEN', owner.csrfToken);
  expect(pause.status).toBe(200);
  expect((await refundsQueue()).isPaused).toBe(true);
  const resume = await request(base()).put('/queues/refunds/resume').set('Cookie', owner.cookie).set('X-CSRF-Token', owner.csrfToken);
  expect(resume.status).toBe(200);
  expect((await refundsQueue()).isPaused).toBe(false);
});

const auditOf = (action: string): Promise<{ actor: string; target_type: string; target_id: string; details: Record<string, string>; credential_kind: string }[]> =>
  service.em().getConnection().execute(`select "actor", "target_type", "target_id", "details", "credential_kind" from "audit_log" where "action" = ? order by "created_at", "id"`, [action]);

test.each([AdminRole.SUPPORT, AdminRole.FINANCE])('%s reads the queues but changes nothing: each change is refused (403) and the refusal audited; its board is read-only', async (role) => {
  const signedIn = await adminSignedIn(service, role);
  const session = signedIn.session;
  const queues = await request(base()).get('/queues').set('Cookie', session.cookie);
  expect(queues.status).toBe(200);
  expect(queues.body.queues.every((q: { readOnlyMode: boolean }) => q.readOnlyMode)).toBe(true);
  const refusedBefore = (await auditOf('queue.change.refused')).length;
  const changes: [string, string][] = [
    ['put', '/queues/refunds/pause'],
    ['put', '/queues/pause'],
    ['put', '/queues/webhook-deliveries/empty'],
    ['put', '/queues/webhook-deliveries/obliterate'],
    ['put', '/queues/refunds/clean/completed'],
    ['put', '/queues/refunds/retry/failed'],
    ['put', '/queues/refunds/job_1/clean'],
    ['post', '/queues/refunds/add'],
  ];
  for (const [method, path] of changes) {
    const res = await request(base())[method as 'put' | 'post'](path).set('Cookie', session.cookie).set('X-CSRF-Token', session.csrfToken).send({ name: 'x', data: {} });
    expect([path, res.status, res.body]).toEqual([path, 403, { success: false, error: 'Access denied' }]);
  }
  expect((await refundsQueue()).isPaused).toBe(false);
  const refusals = (await auditOf('queue.change.refused')).slice(refusedBefore);
  expect(refusals.map((r) => [r.actor, r.target_id, r.details.request, r.details.code])).toEqual(
    changes.map(([method, path]) => [signedIn.email, /^\/queues\/([^/]+)\/./.exec(path)?.[1] ?? 'all', `${method.toUpperCase()} /api${path}`, 'FORBIDDEN']),
  );
});

test("an owner's change is audited before it is made: who, with which credential, the request and the queue", async () => {
  const signedIn = await adminSignedIn(service, AdminRole.OWNER);
  expect((await request(base()).get('/queues').set('Cookie', signedIn.session.cookie)).body.queues.some((q: { readOnlyMode: boolean }) => q.readOnlyMode)).toBe(false);
  const before = (await auditOf('queue.changed')).length;
  expect((await request(base()).put('/queues/refunds/pause').set('Cookie', signedIn.session.cookie).set('X-CSRF-Token', signedIn.session.csrfToken)).status).toBe(200);
  expect((await request(base()).put('/queues/refunds/resume').set('Cookie', signedIn.session.cookie).set('X-CSRF-Token', signedIn.session.csrfToken)).status).toBe(200);
  expect((await auditOf('queue.changed')).slice(before)).toEqual([
    { actor: signedIn.email, target_type: 'queue', target_id: 'refunds', details: { request: 'PUT /api/queues/refunds/pause' }, credential_kind: 'session' },
    { actor: signedIn.email, target_type: 'queue', target_id: 'refunds', details: { request: 'PUT /api/queues/refunds/resume' }, credential_kind: 'session' },
  ]);
});

test("another admin's CSRF token, a seller's session, an ended session: refused", async () => {
  const other = (await adminSignedIn(service, AdminRole.OWNER)).session;
  refused(await request(base()).put('/queues/refunds/pause').set('Cookie', admin.cookie).set('X-XSRF-TOKEN', other.csrfToken));
  const seller = await signUpSeller(service.url);
  const asSeller = await request(base()).put('/queues/refunds/pause').set('Cookie', seller.session.cookie).set('X-XSRF-TOKEN', seller.session.csrfToken);
  expect(asSeller.status).toBe(401);
  await service.em().execute(`update "admin_sessions" set "revoked_at" = now() where "token_hash" = encode(sha256(?::bytea), 'hex')`, [other.cookie.split('=')[1]]);
  expect((await request(base()).put('/queues/refunds/pause').set('Cookie', other.cookie).set('X-XSRF-TOKEN', other.csrfToken)).status).toBe(401);
  expect((await refundsQueue()).isPaused).toBe(false);
});
