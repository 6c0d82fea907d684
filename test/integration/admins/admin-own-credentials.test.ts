import request from 'supertest';
import { Admin } from '../../../src/modules/admins/admin.entity';
import { AdminRole } from '../../../src/modules/admins/admin-role';
import { AdminToken } from '../../../src/modules/admins/admin-token.entity';
import { adminForToken } from '../../../src/modules/admins/admin.service';
import { MIGRATION_NAMES } from '../../../src/platform/db/migrations';
import { randomHex, sha256Hex } from '../../../src/shared/secrets';
import { adminClient, completedPayment, graphql, payableShop, type AdminClient } from '../../support/admin-client';
import { adminSignedIn, type AdminSession } from '../../support/admin-session';
import { migratorOf } from '../../../src/platform/db/database';
import { useDatabaseToUpgrade } from '../../support/migration-database';
import { useTestService } from '../../support/test-service';

/**
 * Each admin's credentials are their own (docs/admin.md, "Admin tokens"): nobody, an owner included,
 * obtains a token for another admin, so one person cannot act as two; four eyes compares people, whatever
 * credential each step came with; and every audit entry names the credential that acted and who issued it.
 */
const service = useTestService({ AUTH_FAILURES_PER_MINUTE: '100000' });
let owner: AdminClient;
let finance: AdminClient;
let secondFinance: AdminClient;

beforeAll(async () => {
  owner = await adminClient(service, AdminRole.OWNER);
  finance = await adminClient(service, AdminRole.FINANCE);
  secondFinance = await adminClient(service, AdminRole.FINANCE);
});

const ISSUE_FOR = 'mutation ($a: ID) { issueAdminToken(adminId: $a) { token adminToken { id adminId issuedBy } } }';
const REQUEST_WITHDRAWAL = 'mutation ($s: ID!) { requestWithdrawal(shopId: $s, amount: 1000) { id status } }';
const APPROVE_WITHDRAWAL = 'mutation ($id: ID!) { approveWithdrawal(id: $id) { id status } }';
const PAY_WITHDRAWAL = 'mutation ($id: ID!) { markWithdrawalPaid(id: $id, reference: "TRX-9") { id status } }';
const LOG = 'query ($t: String) { auditLog(targetId: $t) { items { action adminId credentialKind credentialId credentialIssuedBy } } }';
const NOT_YOURS = {
  message: 'An admin token is issued only to the admin who asks for it: omit adminId. A colleague without access gets a set-up link from the operator (admin-setup-link)',
  extensions: { code: 'ADMIN_TOKEN_NOT_YOURS', status: 403 },
};

const tokensOf = (admin: Admin) => service.em().count(AdminToken, { admin: admin.id });
const cliTokenOf = async (client: AdminClient) => (await service.em().findOneOrFail(AdminToken, { admin: client.admin.id, issuedBy: null })).id;
const asSession = (session: AdminSession, query: string, variables: object = {}) =>
  request(service.url).post('/graphql').set('Content-Type', 'application/json').set('Cookie', session.cookie).set('X-CSRF-Token', session.csrfToken).send({ query, variables });

describe('the attack: an owner acting as two finance admins', () => {
  test('an owner who asks for a finance admin\'s token, with a token or signed in, is refused: nothing issued, the attempt audited', async () => {
    const before = await tokensOf(finance.admin);
    const withToken = await owner.run(ISSUE_FOR, { a: finance.admin.id });
    expect([withToken.errors?.[0], withToken.data?.issueAdminToken ?? null]).toEqual([expect.objectContaining(NOT_YOURS), null]);

    const signedIn = await adminSignedIn(service, AdminRole.OWNER);
    const withSession = await asSession(signedIn.session, ISSUE_FOR, { a: secondFinance.admin.id });
    expect(withSession.body.errors?.[0]).toMatchObject(NOT_YOURS);
    expect([await tokensOf(finance.admin), await tokensOf(secondFinance.admin)]).toEqual([before, 1]);

    const log = await owner.ok('query ($a: ID) { auditLog(adminId: $a, action: "access.refused") { items { targetId details credentialKind } } }', { a: owner.admin.id });
    expect(log.auditLog.items).toEqual([
      { targetId: 'issueAdminToken', details: { code: 'ADMIN_TOKEN_NOT_YOURS', adminId: finance.admin.id }, credentialKind: 'token' },
    ]);
  });

  test('so the owner alone cannot request, approve and pay a withdrawal: every step is refused', async () => {
    const { shop } = await completedPayment(service, 20_000, await payableShop(service));
    // No finance token for the owner, of either finance admin.
    for (const colleague of [finance, secondFinance]) expect((await owner.run(ISSUE_FOR, { a: colleague.admin.id })).errors?.[0]?.extensions?.code).toBe('ADMIN_TOKEN_NOT_YOURS');
    // With the owner's own credentials, the money duties are not theirs.
    expect((await owner.run(REQUEST_WITHDRAWAL, { s: shop.shop.id })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN_ROLE');
    const requested = (await finance.ok(REQUEST_WITHDRAWAL, { s: shop.shop.id })).requestWithdrawal.id;
    expect((await owner.run(APPROVE_WITHDRAWAL, { id: requested })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN_ROLE');
    expect((await owner.run(PAY_WITHDRAWAL, { id: requested })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN_ROLE');
    const status = await owner.ok('query ($s: ID!) { withdrawals(shopId: $s) { items { id status } } }', { s: shop.shop.id });
    expect(status.withdrawals.items).toEqual([{ id: requested, status: 'REQUESTED' }]);
  });

  test('a token one admin issued for another (as before this change) is refused like an unknown one, whoever holds it', async () => {
    const token = `adm_${randomHex(32)}`;
    const em = service.em();
    em.create(AdminToken, { admin: finance.admin.id, issuedBy: owner.admin.id, tokenHash: sha256Hex(token), expiresAt: new Date(Date.now() + 86_400_000) });
    await em.flush();
    const answer = await graphql(service.url, `Bearer ${token}`, '{ currentAdmin { id } }');
    expect([answer.status, answer.errors?.[0]?.extensions?.code]).toEqual([401, 'UNAUTHENTICATED']);
    await expect(adminForToken(service.em(), token)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  test('an admin still issues tokens for themselves (adminId omitted or their own); an owner still lists and revokes a colleague\'s', async () => {
    const own = (await finance.ok(ISSUE_FOR, {})).issueAdminToken;
    expect(own.adminToken).toEqual({ id: expect.stringMatching(/^atk_/), adminId: finance.admin.id, issuedBy: finance.admin.id });
    const named = (await finance.ok(ISSUE_FOR, { a: finance.admin.id })).issueAdminToken;
    expect(named.adminToken.issuedBy).toBe(finance.admin.id);
    expect((await graphql(service.url, `Bearer ${own.token}`, '{ currentAdmin { id } }')).data.currentAdmin.id).toBe(finance.admin.id);

    const listed = (await owner.ok('query ($a: ID) { adminTokens(adminId: $a) { id issuedBy } }', { a: finance.admin.id })).adminTokens;
    expect(listed).toEqual(expect.arrayContaining([{ id: own.adminToken.id, issuedBy: finance.admin.id }, { id: await cliTokenOf(finance), issuedBy: 'cli' }]));
    expect((await owner.ok('mutation ($id: ID!) { revokeAdminToken(id: $id) { revokedAt } }', { id: named.adminToken.id })).revokeAdminToken.revokedAt).toEqual(expect.any(String));
    expect((await graphql(service.url, `Bearer ${named.token}`, '{ currentAdmin { id } }')).status).toBe(401);
  });
});

describe('four eyes compares people, whatever credential each step came with', () => {
  test('a finance admin who requests with one credential and approves with another (own token, own session) is refused; a colleague approves', async () => {
    const person = await adminSignedIn(service, AdminRole.FINANCE);
    const cliToken = (await service.em().findOneOrFail(AdminToken, { admin: person.admin.id })).id;
    const byToken = (query: string, variables: object) => graphql(service.url, `Bearer ${person.apiToken}`, query, variables as Record<string, unknown>);
    const { shop } = await completedPayment(service, 20_000, await payableShop(service));

    const requested = await byToken(REQUEST_WITHDRAWAL, { s: shop.shop.id });
    const id = requested.data.requestWithdrawal.id as string;
    const second = (await byToken(ISSUE_FOR, {})).data.issueAdminToken;
    const withSecondToken = await graphql(service.url, `Bearer ${second.token}`, APPROVE_WITHDRAWAL, { id });
    expect(withSecondToken.errors?.[0]?.extensions?.code).toBe('SELF_APPROVAL_NOT_ALLOWED');
    const withSession = await asSession(person.session, APPROVE_WITHDRAWAL, { id });
    expect(withSession.body.errors?.[0]?.extensions?.code).toBe('SELF_APPROVAL_NOT_ALLOWED');
    const sessionId = (await asSession(person.session, '{ myAdminSessions { id current } }')).body.data.myAdminSessions.find((s: { current: boolean }) => s.current).id;

    expect((await secondFinance.ok(APPROVE_WITHDRAWAL, { id })).approveWithdrawal.status).toBe('APPROVED');
    expect((await secondFinance.ok(PAY_WITHDRAWAL, { id })).markWithdrawalPaid.status).toBe('PAID');

    // Each entry names the person, the credential that acted and who issued it.
    const log = (await owner.ok(LOG, { t: id })).auditLog.items;
    const colleagueToken = await cliTokenOf(secondFinance);
    expect(log).toEqual([
      { action: 'withdrawal.paid', adminId: secondFinance.admin.id, credentialKind: 'token', credentialId: colleagueToken, credentialIssuedBy: 'cli' },
      { action: 'withdrawal.approved', adminId: secondFinance.admin.id, credentialKind: 'token', credentialId: colleagueToken, credentialIssuedBy: 'cli' },
      { action: 'withdrawal.approval_refused', adminId: person.admin.id, credentialKind: 'session', credentialId: sessionId, credentialIssuedBy: person.admin.id },
      { action: 'withdrawal.approval_refused', adminId: person.admin.id, credentialKind: 'token', credentialId: second.adminToken.id, credentialIssuedBy: person.admin.id },
      { action: 'withdrawal.requested', adminId: person.admin.id, credentialKind: 'token', credentialId: cliToken, credentialIssuedBy: 'cli' },
    ]);
  });

  test('the token issue itself is audited with the credential that issued it', async () => {
    const issued = (await finance.ok(ISSUE_FOR, {})).issueAdminToken;
    const entry = (await owner.ok(LOG, { t: finance.admin.id })).auditLog.items.find((e: { action: string }) => e.action === 'admin_token.issued');
    expect(entry).toEqual({ action: 'admin_token.issued', adminId: finance.admin.id, credentialKind: 'token', credentialId: await cliTokenOf(finance), credentialIssuedBy: 'cli' });
    expect(issued.adminToken.issuedBy).toBe(finance.admin.id);
  });
});

describe('upgrading (Migration20261129010000_own_admin_credentials)', () => {
  const upgrading = useDatabaseToUpgrade('payments_own_credentials');

  test('issuers come from the audit log; a live token issued for another admin is revoked (and audited), the others keep working', async () => {
    const { orm } = upgrading;
    const index = MIGRATION_NAMES.indexOf('Migration20261129010000_own_admin_credentials');
    await migratorOf(orm).up({ to: MIGRATION_NAMES[index - 1] });
    const sql = orm.em.getConnection();
    await sql.execute(`insert into admins (id, email, role, created_at) values ('adm_owner', 'owner@payments.example', 'owner', now()), ('adm_fin', 'fin@payments.example', 'finance', now())`);
    const tokens = { cli: `adm_${'1'.repeat(64)}`, self: `adm_${'2'.repeat(64)}`, byOwner: `adm_${'3'.repeat(64)}`, byOwnerRevoked: `adm_${'4'.repeat(64)}` };
    const row = (id: string, token: string, revoked: boolean) =>
      sql.execute(`insert into admin_tokens (id, admin_id, token_hash, created_at, expires_at, revoked_at) values (?, 'adm_fin', ?, now(), now() + interval '30 days', ?)`, [id, sha256Hex(token), revoked ? new Date() : null]);
    await row('atk_cli', tokens.cli, false);
    await row('atk_self', tokens.self, false);
    await row('atk_owner', tokens.byOwner, false);
    await row('atk_owner_old', tokens.byOwnerRevoked, true);
    const issued = (admin: string, tokenId: string) =>
      sql.execute(`insert into audit_log (admin_id, actor, action, target_type, target_id, details) values (?, 'x@payments.example', 'admin_token.issued', 'admin', 'adm_fin', ?)`, [admin, JSON.stringify({ tokenId })]);
    await issued('adm_fin', 'atk_self');
    await issued('adm_owner', 'atk_owner');
    await issued('adm_owner', 'atk_owner_old');

    await migratorOf(orm).up();

    const after = await sql.execute(`select id, issued_by_id, revoked_at is not null as revoked from admin_tokens order by id`);
    expect(after).toEqual([
      { id: 'atk_cli', issued_by_id: null, revoked: false },
      { id: 'atk_owner', issued_by_id: 'adm_owner', revoked: true },
      { id: 'atk_owner_old', issued_by_id: 'adm_owner', revoked: true },
      { id: 'atk_self', issued_by_id: 'adm_fin', revoked: false },
    ]);
    expect((await adminForToken(orm.em.fork(), tokens.cli)).admin.id).toBe('adm_fin');
    expect((await adminForToken(orm.em.fork(), tokens.self)).admin.id).toBe('adm_fin');
    await expect(adminForToken(orm.em.fork(), tokens.byOwner)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    const revocations = await sql.execute(`select admin_id, actor, target_id, details, credential_kind from audit_log where action = 'admin_token.revoked'`);
    expect(revocations).toEqual([{ admin_id: null, actor: 'cli', target_id: 'adm_fin', details: { tokenId: 'atk_owner', issuedBy: 'adm_owner' }, credential_kind: null }]);
  });
});
