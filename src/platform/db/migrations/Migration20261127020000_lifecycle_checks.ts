import { Migration } from '@mikro-orm/migrations';
import { LIFECYCLES } from '../../../modules/lifecycles';
import { checkConstraints, sqlList } from '../../lifecycle/lifecycle';

/**
 * The status check constraints and defaults, rebuilt from the lifecycle tables (src/modules/lifecycles.ts), so the
 * database refuses any state the tables do not hold. A change to a table's states needs a new migration that
 * runs `lifecycleChecksSql()` again (this one has run already where it ran); test/integration/lifecycle-checks.test.ts
 * fails until the database's constraints equal the tables.
 */
export function lifecycleChecksSql(tables?: readonly string[]): string[] {
  return LIFECYCLES.filter((lifecycle) => !tables || tables.includes(lifecycle.table)).flatMap((lifecycle) => {
    const defaults = [`alter table "${lifecycle.table}" alter column "${lifecycle.column}" set default ${sqlList([lifecycle.initial])}`];
    if (lifecycle.side) defaults.push(`alter table "${lifecycle.table}" alter column "${lifecycle.side.column}" set default ${sqlList([lifecycle.side.initial])}`);
    const checks = checkConstraints(lifecycle).map(
      (c) => `alter table "${c.table}" drop constraint if exists "${c.name}", add constraint "${c.name}" ${c.sql}`,
    );
    return [...checks, ...defaults];
  });
}

export class Migration20261127020000_lifecycle_checks extends Migration {
  override async up(): Promise<void> {
    // The tables that existed when this migration was written; later ones get theirs from the migration that adds them.
    for (const sql of lifecycleChecksSql(['payments', 'refunds', 'withdrawals', 'webhook_deliveries'])) this.addSql(sql);
  }
}
