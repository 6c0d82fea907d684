import { adminByEmail, createAdmin, revokeAdmin } from '../../src/modules/admins/admin.service';
import { AdminRole } from '../../src/modules/admins/admin-role';
import { AuditEntry } from '../../src/modules/audit/audit-entry.entity';
import { migratorOf } from '../../src/platform/db/database';
import { MIGRATION_NAMES } from '../../src/platform/db/migrations';
import { useDatabaseToUpgrade } from '../support/migration-database';
import { useModuleDatabase } from '../support/module-database';
import { refusedWith } from '../support/domain-errors';

/**
 * Admins' e-mail addresses are kept in one form (trimmed, lower case), as sellers' are: password sign-in looks
 * the address up in that form, so an operator typing `Alice@Example.com` must create an admin who can sign in,
 * and the CLI's setup link and revocation must find them however the address is typed.
 */
const db = useModuleDatabase();
const local = () => `ops.${Math.random().toString(36).slice(2, 10)}`;
const newAdmin = (email: string) => createAdmin(db.em(), { email, role: AdminRole.SUPPORT, tokenTtlDays: 90 });

test('an address typed with spaces and capitals is stored trimmed and in lower case, in the audit entry too', async () => {
  const name = local();
  const { admin } = await newAdmin(`  ${name.toUpperCase()}@Payments.EXAMPLE `);
  expect(admin.email).toBe(`${name}@payments.example`);
  const entry = await db.em().findOneOrFail(AuditEntry, { action: 'admin.created', targetId: admin.id });
  expect(entry.details).toMatchObject({ email: `${name}@payments.example` });
});

test('a second admin whose address differs only by case or spaces is refused, as is an address that is none', async () => {
  const name = local();
  await newAdmin(`${name}@payments.example`);
  expect((await refusedWith(newAdmin(` ${name.toUpperCase()}@PAYMENTS.example`))).code).toBe('EMAIL_TAKEN');
  expect((await refusedWith(newAdmin('not an address'))).code).toBe('EMAIL_INVALID');
});

test('the CLI finds and revokes an admin however the address is typed', async () => {
  const name = local();
  const { admin } = await newAdmin(`${name}@payments.example`);
  expect((await adminByEmail(db.em(), ` ${name.toUpperCase()}@Payments.Example`))?.id).toBe(admin.id);
  expect(await adminByEmail(db.em(), `someone-else@payments.example`)).toBeNull();
  const revoked = await revokeAdmin(db.em(), `${name.toUpperCase()}@PAYMENTS.EXAMPLE`);
  expect(revoked?.id).toBe(admin.id);
  expect(revoked?.revokedAt).toBeInstanceOf(Date);
});

describe('the migration of admins created before', () => {
  const upgrading = useDatabaseToUpgrade('admin_emails');

  test('puts each address in its normal form, leaving one whose normal form another admin has', async () => {
    const { orm } = upgrading;
    await migratorOf(orm).up({ to: MIGRATION_NAMES[MIGRATION_NAMES.indexOf('Migration20261202000000_admin_emails') - 1] });
    const sql = orm.em.getConnection();
    await sql.execute(`insert into "admins" ("id", "email", "role", "created_at")
      values ('adm_typed', '  Alice@Payments.EXAMPLE ', 'owner', now()), ('adm_low', 'twin@payments.example', 'support', now()), ('adm_cap', 'Twin@Payments.example', 'finance', now())`);
    await migratorOf(orm).up();
    const rows = await sql.execute(`select "id", "email" from "admins" order by "id"`);
    expect(rows).toEqual([
      { id: 'adm_cap', email: 'Twin@Payments.example' },
      { id: 'adm_low', email: 'twin@payments.example' },
      { id: 'adm_typed', email: 'alice@payments.example' },
    ]);
  });
});
