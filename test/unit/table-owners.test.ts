import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The table-owner rule (scripts/table-owners.mjs, run by `npm test`) on a made-up tree: a table is written by its
 * owner (SQL in its stores, the ORM anywhere in its folder), the move engine and the database platform, and by
 * nothing else. It must fail on each breach, or it guards nothing.
 */
const SCRIPT = path.join(__dirname, '../../scripts/table-owners.mjs');

const OWNERS = { payments: 'modules/payments', refunds: 'modules/refunds' };
const ENTITIES = {
  'src/modules/payments/payment.entity.ts': "@Entity({ tableName: 'payments' })\nexport class Payment {}\n",
  'src/modules/refunds/refund.entity.ts': "@Entity({ tableName: 'refunds' })\nexport class Refund {}\n",
  'src/platform/db/migrations/Migration1.ts': 'this.addSql(`create table "payments" (id text)`);\nthis.addSql(`create table "refunds" (id text)`);\n',
};

function runCheck(files: Record<string, string>, owners: Record<string, string> = OWNERS) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'table-owners-'));
  for (const [file, text] of Object.entries({ ...ENTITIES, ...files })) {
    fs.mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  fs.writeFileSync(path.join(root, 'src/modules/table-owners.json'), JSON.stringify({ tables: owners }));
  const result = spawnSync(process.execPath, [SCRIPT, '--root', root], { encoding: 'utf8' });
  fs.rmSync(root, { recursive: true, force: true });
  return { status: result.status, output: result.stdout + result.stderr };
}

const SQL_UPDATE = 'export const f = (em) => em.execute(`update "payments" set "x" = ? where "id" = ?`, [1, id]);\n';
const ORM_CREATE = "export const g = (em) => em.create(Payment, { id: 'p' });\n";

test("the owner's store (SQL), the owner's services (ORM), the move engine and the database platform pass", () => {
  const { status, output } = runCheck({
    'src/modules/payments/payment-store.ts': SQL_UPDATE,
    'src/modules/payments/payment.service.ts': `${ORM_CREATE}export const h = async (em, payment: Payment) => { payment.status = 'x'; await em.flush(); };\n`,
    'src/platform/lifecycle/move-statement.ts': 'export const s = (t) => `update "${t}" set "status" = ?`;\n',
    'src/platform/lifecycle/apply-move.ts': 'export const m = (tx, entity) => tx.nativeUpdate(entity, {}, {});\n',
    'src/platform/db/database.ts': 'export const d = (em) => em.execute(`delete from "payments"`);\n',
    'src/modules/refunds/refund.service.ts': '// We never update "payments" here.\nexport const r = (em) => em.execute(`select 1 from "payments" for update skip locked`);\n',
  });
  expect(output).toContain('2 tables, each written by its owner');
  expect(status).toBe(0);
});

test("SQL writing the owner's table outside its stores fails, even in the owner's folder", () => {
  const { status, output } = runCheck({ 'src/modules/payments/payment.service.ts': SQL_UPDATE });
  expect(status).toBe(1);
  expect(output).toContain('src/modules/payments/payment.service.ts:1: writes "payments" (owner: modules/payments) 1 time(s)');
});

test.each([
  ['insert into, quoted', 'em.execute(`insert into "payments" ("id") values (?)`, [id]);'],
  ['update, unquoted', 'em.execute(`UPDATE payments SET x = 1`);'],
  ['delete from', 'em.execute(`delete from "payments" where "id" = ?`, [id]);'],
  ['merge into', 'em.execute(`merge into payments using x on true when matched then delete`);'],
  ['a spliced-in table the file names', "const T = 'payments';\nem.execute(`update \"${T}\" set x = 1`);"],
  ['em.create', "em.create(Payment, { id: 'p' });"],
  ['nativeUpdate', 'em.nativeUpdate(Payment, { id }, { x: 1 });'],
  ['nativeDelete', 'em.nativeDelete(Payment, { id });'],
  ['insert and insertMany', 'em.insert(Payment, {});\nem.insertMany(Payment, []);'],
  ['upsert', 'em.upsert(Payment, {});'],
  ['persist of a new entity', 'em.persist(new Payment());'],
  ['a query builder that updates', 'em.createQueryBuilder(Payment).update({ x: 1 }).where({ id });'],
  ['a change to a loaded entity', 'const payment = await em.findOneOrFail(Payment, id);\npayment.status = "x";\nawait em.flush();'],
  ['a change to an entity handed in', 'export function f(em, payment: Payment) { Object.assign(payment, { x: 1 }); }'],
])("another module's write of the table fails: %s", (_name, write) => {
  const { status, output } = runCheck({ 'src/modules/refunds/refund.service.ts': `${write}\n` });
  expect(status).toBe(1);
  expect(output).toMatch(/src\/modules\/refunds\/refund\.service\.ts:[\d,]+: writes "payments" \(owner: modules\/payments\)/);
});

test("a spliced-in table the file does not name is the caller's, and a resolver commits no unit of work itself", () => {
  const { status, output } = runCheck({
    'src/modules/refunds/reseal-store.ts': 'export const r = (em, table) => em.execute(`update "${table}" set x = ?`, [1]);\n',
    'src/modules/payments/payment.resolver.ts': 'export const r = async (context) => { await context.em.flush(); };\n',
  });
  expect(status).toBe(1);
  expect(output).toContain('src/modules/refunds/reseal-store.ts:1: writes a table its caller names 1 time(s)');
  expect(output).toContain("src/modules/payments/payment.resolver.ts:1: writes through the unit of work 1 time(s): call the module's service");
});

test('every table has an owner, and an entity lives in its owner', () => {
  const { status, output } = runCheck(
    { 'src/modules/refunds/payment-copy.entity.ts': "@Entity({ tableName: 'payments' })\nexport class PaymentCopy {}\n", 'src/platform/db/migrations/Migration2.ts': 'this.addSql(`create table "ghosts" (id text)`);\n' },
  );
  expect(status).toBe(1);
  expect(output).toContain('src/modules/refunds/payment-copy.entity.ts: entity PaymentCopy lives outside "payments"\'s owner modules/payments');
  expect(output).toContain('table "ghosts" has no owner');
  expect(runCheck({}, { payments: 'modules/payments' }).output).toContain('table "refunds" has no owner');
});
