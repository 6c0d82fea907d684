import { totpCode } from '../../src/modules/identity/totp';
import { adminClient, graphql } from '../support/admin-client';
import { ADMIN_PASSWORD, adminOperation, nextCode } from '../support/admin-session';
import { runNode } from '../support/processes';
import { useTestService } from '../support/test-service';

const service = useTestService();

const cli = (args: string[]) => runNode('cli.js', args, { DATABASE_URL: service.database.orm.config.getClientUrl(), LOG_LEVEL: 'warn' });
const AUDIT = '{ auditLog { pagination { total } } }';

describe('operations CLI: admin tokens', () => {
  test('revoke-admin: the token stops working at once, and the audit log says the CLI did it', async () => {
    const victim = await adminClient(service);
    expect((await victim.run(AUDIT)).errors).toBeUndefined();

    const result = await cli(['revoke-admin', '--email', victim.admin.email]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ admin_id: victim.admin.id, revoked: true });

    const after = await victim.run(AUDIT);
    expect([after.status, after.errors?.[0].message]).toEqual([401, 'Authentication required']);
    const reader = await adminClient(service);
    const log = await reader.ok(`query ($t: String) { auditLog(targetId: $t) { items { action actor } } }`, { t: victim.admin.id });
    expect(log.auditLog.items).toEqual([
      { action: 'admin.revoked', actor: 'cli' },
      { action: 'admin.created', actor: 'cli' },
    ]);
  });

  test('create-admin --role: the token works at once with that role, for ADMIN_TOKEN_TTL_DAYS', async () => {
    const result = await runNode('cli.js', ['create-admin', '--email', 'payouts@payments.example', '--role', 'FINANCE'], {
      DATABASE_URL: service.database.orm.config.getClientUrl(),
      LOG_LEVEL: 'warn',
      ADMIN_TOKEN_TTL_DAYS: '30',
    });
    expect(result.code).toBe(0);
    const created = JSON.parse(result.stdout);
    expect(created).toEqual({ admin_id: expect.stringMatching(/^adm_/), role: 'finance', token: expect.stringMatching(/^adm_[0-9a-f]{64}$/), setup_link: expect.any(String) });
    const me = await graphql(service.url, `Bearer ${created.token}`, '{ currentAdmin { id role } adminTokens { createdAt expiresAt } }');
    expect(me.data.currentAdmin).toEqual({ id: created.admin_id, role: 'FINANCE' });
    const [token] = me.data.adminTokens;
    expect(Date.parse(token.expiresAt) - Date.parse(token.createdAt)).toBe(30 * 24 * 60 * 60 * 1000);
  });

  test('the set-up link create-admin prints lets the admin choose a password and enrol TOTP, then sign in; admin-setup-link prints a new one', async () => {
    const result = await cli(['create-admin', '--email', 'browser@payments.example', '--role', 'owner']);
    const { setup_link: link } = JSON.parse(result.stdout);
    const token = new URL(link).searchParams.get('setup')!;
    const begun = await adminOperation(service.url, 'AdminSetUp', { token, password: ADMIN_PASSWORD });
    const { secret } = begun.body.data.adminSetUp;
    expect((await adminOperation(service.url, 'ConfirmAdminSetUp', { token, code: totpCode(secret) })).body.data.confirmAdminSetUp).toHaveLength(10);
    const signedIn = await adminOperation(service.url, 'AdminSignIn', { email: 'browser@payments.example', password: ADMIN_PASSWORD, code: nextCode(secret) });
    expect(signedIn.body.data.adminSignIn.admin.role).toBe('OWNER');

    const again = await cli(['admin-setup-link', '--email', 'browser@payments.example']);
    expect(again.code).toBe(0);
    const fresh = new URL(JSON.parse(again.stdout).setup_link).searchParams.get('setup')!;
    expect(fresh).not.toBe(token);
    expect((await adminOperation(service.url, 'AdminSetUp', { token: fresh, password: 'second-passphrase-here-7' })).body.data.adminSetUp.secret).not.toBe(secret);
    expect((await cli(['admin-setup-link', '--email', 'nobody@payments.example'])).stderr).toMatch(/No active admin has the email address/);
  });

  test.each([
    [['create-admin', '--email', 'norole@payments.example'], /--role is required/],
    [['create-admin', '--email', 'root@payments.example', '--role', 'root'], /--role must be one of support, finance, owner/],
  ])('%j -> a clear message, exit 2, no admin', async (args, message) => {
    const result = await cli(args);
    expect([result.code, result.stdout]).toEqual([2, '']);
    expect(result.stderr).toMatch(message);
    const [row] = await service.em().getConnection().execute(`select count(*)::int as n from admins where email = ?`, [args[2]]);
    expect(row.n).toBe(0);
  });

  test('an unknown address -> a clear message and a non-zero exit', async () => {
    const result = await cli(['revoke-admin', '--email', 'nobody@payments.example']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/No admin has the email address nobody@payments.example/);
    expect(result.stdout).toBe('');
  });
});
