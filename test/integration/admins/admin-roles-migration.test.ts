import { AdminRole } from '../../../src/modules/admins/admin-role';
import { adminForToken } from '../../../src/modules/admins/admin.service';
import { sha256Hex } from '../../../src/shared/secrets';
import { migratorOf } from '../../../src/platform/db/database';
import { useDatabaseToUpgrade } from '../../support/migration-database';

/** An admin created before roles existed keeps working after the migration, as an owner (docs/admin.md). */
const upgrading = useDatabaseToUpgrade('payments_roles_migration');

test('the admin of the old schema becomes an owner whose token still works, for 90 days from the migration', async () => {
  const { orm } = upgrading;
  const migrator = migratorOf(orm);
  await migrator.up({ to: 'Migration20261124000000_admin_console' });
  const token = `adm_${'ab'.repeat(32)}`;
  await orm.em.getConnection().execute(`insert into admins (id, email, token_hash, created_at) values ('adm_old', 'old@payments.example', ?, now() - interval '400 days')`, [sha256Hex(token)]);

  const before = Date.now();
  await migrator.up();

  const { admin, tokenId } = await adminForToken(orm.em.fork(), token);
  expect([admin.id, admin.role, tokenId]).toEqual(['adm_old', AdminRole.OWNER, expect.stringMatching(/^atk_[0-9a-f]{16}$/)]);
  const [row] = await orm.em.getConnection().execute(`select expires_at from admin_tokens where admin_id = 'adm_old'`);
  const days = (new Date(row.expires_at).getTime() - before) / (24 * 60 * 60 * 1000);
  expect(days).toBeGreaterThan(89.99);
  expect(days).toBeLessThan(90.01);
  await expect(orm.em.getConnection().execute(`select token_hash from admins`)).rejects.toThrow(/column "token_hash" does not exist/);
  await expect(orm.em.getConnection().execute(`insert into admins (id, email, created_at) values ('adm_x', 'x@payments.example', now())`)).rejects.toThrow(/role/);
});
