import request from 'supertest';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { AdminToken } from '../../../src/modules/admins/admin-token.entity';
import { adminForToken } from '../../../src/modules/admins/admin.service';
import { DEFAULT_ADMIN_TOKEN_TTL_DAYS } from '../../../src/shared/config';
import { adminClient, graphql, type AdminClient } from '../../support/admin-client';
import { useTestService } from '../../support/test-service';

/** Admin tokens expire (ADMIN_TOKEN_TTL_DAYS) and can be listed and revoked (docs/admin.md). */
const service = useTestService({ ADMIN_TOKEN_TTL_DAYS: '7', AUTH_FAILURES_PER_MINUTE: '100000' });
let owner: AdminClient;

const DAY_MS = 24 * 60 * 60 * 1000;
const TOKENS = '{ adminTokens { id createdAt expiresAt revokedAt current adminId } }';
const ISSUE = 'mutation { issueAdminToken { token adminToken { id createdAt expiresAt current } } }';
const REVOKE = 'mutation ($id: ID!) { revokeAdminToken(id: $id) { id revokedAt } }';
const WHO = '{ currentAdmin { id email role } }';
const REFUSED = [401, 'Authentication required', 'UNAUTHENTICATED'];

beforeAll(async () => {
  owner = await adminClient(service, AdminRole.OWNER);
});

async function answerTo(token: string, query = WHO) {
  const answer = await graphql(service.url, `Bearer ${token}`, query);
  return answer.errors ? [answer.status, answer.errors[0].message, answer.errors[0].extensions?.code] : [answer.status, answer.data];
}

test('an admin lists their own tokens, issues a new one that expires after ADMIN_TOKEN_TTL_DAYS, and revokes the old one', async () => {
  const admin = await adminClient(service, AdminRole.SUPPORT);
  const [first] = (await admin.ok(TOKENS)).adminTokens;
  expect(first).toMatchObject({ revokedAt: null, current: true, adminId: admin.admin.id });

  const issued = (await admin.ok(ISSUE)).issueAdminToken;
  expect(issued.token).toMatch(/^adm_[0-9a-f]{64}$/);
  expect(Date.parse(issued.adminToken.expiresAt) - Date.parse(issued.adminToken.createdAt)).toBe(7 * DAY_MS);
  expect(issued.adminToken.current).toBe(false);

  const next = await graphql(service.url, `Bearer ${issued.token}`, TOKENS);
  expect(next.data.adminTokens.map((t: { id: string; current: boolean }) => [t.id, t.current])).toEqual([
    [issued.adminToken.id, true],
    [first.id, false],
  ]);

  const revoked = await graphql(service.url, `Bearer ${issued.token}`, REVOKE, { id: first.id });
  expect(revoked.data.revokeAdminToken.revokedAt).toEqual(expect.any(String));
  expect(await answerTo(admin.token)).toEqual(REFUSED);
  expect(await answerTo(issued.token)).toEqual([200, { currentAdmin: { id: admin.admin.id, email: admin.admin.email, role: 'SUPPORT' } }]);
  // Nothing the token stored is shown: no hash, no token.
  expect(JSON.stringify(next.data)).not.toMatch(/[0-9a-f]{64}/);
});

test('an expired token is refused exactly like an unknown one', async () => {
  const admin = await adminClient(service, AdminRole.FINANCE);
  expect((await answerTo(admin.token))[0]).toBe(200);
  // Time passes: the token's expiry is now behind us.
  await service.em().nativeUpdate(AdminToken, { admin: admin.admin.id }, { expiresAt: new Date(Date.now() - 1000) });
  expect(await answerTo(admin.token)).toEqual(REFUSED);
  expect(await answerTo(`adm_${'1'.repeat(64)}`)).toEqual(REFUSED);
});

test('with a clock the test controls: accepted until the last millisecond before expiresAt, refused from it on', async () => {
  const admin = await adminClient(service, AdminRole.FINANCE);
  const record = await service.em().findOneOrFail(AdminToken, { admin: admin.admin.id });
  const expiry = record.expiresAt.getTime();
  expect(expiry - record.createdAt.getTime()).toBe(DEFAULT_ADMIN_TOKEN_TTL_DAYS * DAY_MS); // created as the CLI does, with the default
  expect((await adminForToken(service.em(), admin.token, new Date(expiry - 1))).admin.id).toBe(admin.admin.id);
  await expect(adminForToken(service.em(), admin.token, new Date(expiry))).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
});

test('an owner lists and revokes another admin\'s token; the audit log records who did it', async () => {
  const finance = await adminClient(service, AdminRole.FINANCE);
  const tokens = (await owner.ok('query ($a: ID) { adminTokens(adminId: $a) { id current } }', { a: finance.admin.id })).adminTokens;
  expect(tokens).toEqual([{ id: expect.any(String), current: false }]);
  await owner.ok(REVOKE, { id: tokens[0].id });
  expect(await answerTo(finance.token)).toEqual(REFUSED);
  const log = await owner.ok('query ($t: String) { auditLog(targetId: $t, limit: 1) { items { action actor details } } }', { t: finance.admin.id });
  expect(log.auditLog.items).toEqual([{ action: 'admin_token.revoked', actor: owner.admin.email, details: { tokenId: tokens[0].id } }]);
});

test('a non-owner cannot list or revoke another admin\'s tokens (FORBIDDEN_ROLE), nor issue one (ADMIN_TOKEN_NOT_YOURS, as for owners): audited, the token keeps working', async () => {
  const support = await adminClient(service, AdminRole.SUPPORT);
  const finance = await adminClient(service, AdminRole.FINANCE);
  const tokenId = (await service.em().findOneOrFail(AdminToken, { admin: finance.admin.id })).id;
  const attempts = [
    ['adminTokens', await support.run('query ($a: ID) { adminTokens(adminId: $a) { id } }', { a: finance.admin.id })],
    ['issueAdminToken', await support.run('mutation ($a: ID) { issueAdminToken(adminId: $a) { token } }', { a: finance.admin.id })],
    ['revokeAdminToken', await support.run(REVOKE, { id: tokenId })],
  ] as const;
  for (const [name, answer] of attempts) {
    const code = name === 'issueAdminToken' ? 'ADMIN_TOKEN_NOT_YOURS' : 'FORBIDDEN_ROLE';
    expect([name, answer.errors?.[0]?.extensions?.code, answer.data?.[name] ?? null]).toEqual([name, code, null]);
    if (code === 'FORBIDDEN_ROLE') expect(answer.errors?.[0]?.message).toBe(`${name} needs the owner role; your admin role is support`);
  }
  expect((await answerTo(finance.token))[0]).toBe(200);
  const log = await owner.ok('query ($a: ID) { auditLog(adminId: $a) { items { action targetId } } }', { a: support.admin.id });
  expect(log.auditLog.items.map((e: { action: string; targetId: string }) => `${e.action} ${e.targetId}`).sort()).toEqual([
    'access.refused adminTokens',
    'access.refused issueAdminToken',
    'access.refused revokeAdminToken',
  ]);
});

test('revoking a revoked token changes nothing; an unknown token id is 404', async () => {
  const admin = await adminClient(service, AdminRole.SUPPORT);
  const second = (await admin.ok(ISSUE)).issueAdminToken;
  const first = (await admin.ok(REVOKE, { id: (await service.em().findOneOrFail(AdminToken, { admin: admin.admin.id, id: { $ne: second.adminToken.id } })).id })).revokeAdminToken;
  const again = await graphql(service.url, `Bearer ${second.token}`, REVOKE, { id: first.id });
  expect(again.data.revokeAdminToken.revokedAt).toBe(first.revokedAt);
  const missing = await graphql(service.url, `Bearer ${second.token}`, REVOKE, { id: 'atk_missing' });
  expect(missing.errors?.[0]).toMatchObject({ message: 'Admin token not found', extensions: { code: 'ADMIN_TOKEN_NOT_FOUND' } });
});

test('a token is for scripts: sent from a browser (Sec-Fetch-Site, or an Origin) it is refused before anything runs, whatever the page', async () => {
  const admin = await adminClient(service, AdminRole.FINANCE);
  const send = (headers: Record<string, string>) =>
    request(service.url).post('/graphql').set('Content-Type', 'application/json').set('Authorization', `Bearer ${admin.token}`).set(headers).send({ query: WHO });
  const browserHeaders: Record<string, string>[] = [{ 'Sec-Fetch-Site': 'same-origin' }, { 'Sec-Fetch-Site': 'none' }, { 'Sec-Fetch-Site': 'cross-site' }, { Origin: service.url }, { Origin: 'https://evil.example' }];
  for (const headers of browserHeaders) {
    const res = await send(headers);
    expect([headers, res.status, res.body]).toEqual([
      headers,
      403,
      { errors: [{ message: 'Admin tokens are for scripts against /graphql; in a browser, sign in at /admin with your password and authenticator code', extensions: { code: 'ADMIN_TOKEN_IN_BROWSER' } }] },
    ]);
  }
  // A script (curl, a job) sends neither: the token works.
  expect((await send({})).body.data.currentAdmin.email).toBe(admin.admin.email);
});
