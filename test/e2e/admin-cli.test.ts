import { adminClient } from '../support/admin-client';
import { runNode } from '../support/processes';
import { startTestService, type TestService } from '../support/test-service';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

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

  test('an unknown address -> a clear message and a non-zero exit', async () => {
    const result = await cli(['revoke-admin', '--email', 'nobody@payments.example']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/No admin has the email address nobody@payments.example/);
    expect(result.stdout).toBe('');
  });
});
