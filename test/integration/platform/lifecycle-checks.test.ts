import { LIFECYCLES } from '../../../src/modules/lifecycles';
import { createSecretBox } from '../../../src/modules/identity/secret-box';
import { checkConstraints, statesOf, type Lifecycle } from '../../../src/platform/lifecycle/lifecycle';
import { useModuleDatabase } from '../../support/module-database';
import { randomBytes } from 'node:crypto';
import { createPayment } from '../../../src/modules/payments/payment.service';
import { createSellerWithShop } from '../../../src/modules/identity/shop-provisioning';

/**
 * The database holds the lifecycle tables' states and nothing else (src/modules/lifecycles.ts, migration
 * Migration20261127020000_lifecycle_checks): each status column's check constraint lists exactly the table's
 * states, in order, its default is the initial state, and a state the table does not hold is refused.
 */
const database = useModuleDatabase({ poolSize: 2 });

const sql = <T>(query: string, params: unknown[] = []) => database.em().getConnection().execute<T[]>(query, params);

/** Every column with its states: the status, and the payment's checkout stage. */
const columns = LIFECYCLES.flatMap((l: Lifecycle) => [
  { table: l.table, column: l.column, states: statesOf(l), initial: l.initial as string, constraint: checkConstraints(l)[0].name },
  ...(l.side ? [{ table: l.table, column: l.side.column, states: Object.keys(l.side.states), initial: l.side.initial, constraint: checkConstraints(l)[1].name }] : []),
]);

test.each(columns)('$table $column: the check constraint and default are the table\'s', async ({ table, column, states, initial, constraint }) => {
  const [check] = await sql<{ def: string }>(`select pg_get_constraintdef(oid) as def from pg_constraint where conname = ? and conrelid = ?::regclass`, [constraint, table]);
  expect(check).toBeDefined();
  expect([...check.def.matchAll(/'([^']+)'::text/g)].map((m) => m[1])).toEqual(states);
  const [{ column_default: fallback }] = await sql<{ column_default: string }>(
    `select column_default from information_schema.columns where table_name = ? and column_name = ?`,
    [table, column],
  );
  expect(fallback).toBe(`'${initial}'::text`);
});

test('a state no table holds is refused by the database', async () => {
  const em = database.em();
  const shop = await createSellerWithShop(em, { email: `checks-${randomBytes(4).toString('hex')}@example.com`, shopName: 'Checks' }, createSecretBox(undefined));
  const { payment } = await createPayment(em, shop.shop.id, { amount: 1000, currency: 'usd', returnUrl: 'https://shop.example/back' });
  await expect(sql(`update "payments" set "status" = 'captured' where "id" = ?`, [payment.id])).rejects.toThrow(/payments_status_check/);
  await expect(sql(`update "payments" set "checkout_stage" = 'shipped' where "id" = ?`, [payment.id])).rejects.toThrow(/payments_checkout_stage_check/);
});
