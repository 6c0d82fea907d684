import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The SQL rule (scripts/raw-sql.mjs, run by `npm test`) on a made-up tree: SQL runs in stores, the database
 * platform and the engine's statement form; elsewhere only as often as the list allows, which only shrinks;
 * and placeholders are `?`. It must fail on each breach, or it guards nothing.
 */
const SCRIPT = path.join(__dirname, '../../scripts/raw-sql.mjs');

function runCheck(files: Record<string, string>, allowed: Record<string, number> = {}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'raw-sql-'));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  fs.writeFileSync(path.join(root, '.raw-sql-allowed.json'), JSON.stringify({ files: allowed }));
  const result = spawnSync(process.execPath, [SCRIPT, '--root', root], { encoding: 'utf8' });
  fs.rmSync(root, { recursive: true, force: true });
  return { status: result.status, output: result.stdout + result.stderr };
}

const RUNS_SQL = 'export const f = (em) => em.execute(`select 1 from "payments" where "id" = ?`, [id]);\n';
const BUILDER = "export const g = (qb) => qb.execute('get');\nexport const h = (qb) => qb.execute();\n";

test('a store, the database platform and the query builder pass', () => {
  const { status, output } = runCheck({
    'src/modules/payments/payment-store.ts': RUNS_SQL,
    'src/platform/db/database.ts': "export const l = (c) => c.query('select pg_advisory_lock($1)', [1]);\n" + RUNS_SQL,
    'src/modules/payments/payment.service.ts': BUILDER,
  });
  expect(output).toContain('0 left to move');
  expect(status).toBe(0);
});

test('SQL run outside a store fails, naming the file and its lines, including pooledQuery and a typed execute', () => {
  const { status, output } = runCheck({ 'src/modules/payments/payment.service.ts': `${RUNS_SQL}const rows = await tx.execute<{ id: string }[]>(SQL);\nawait pooledQuery(em, SQL, []);\n` });
  expect(status).toBe(1);
  expect(output).toContain("src/modules/payments/payment.service.ts:1,2,3: runs SQL 3 time(s): move it to the module's store");
});

test('a listed file may keep its count, not grow it; a count that shrank or a file that stopped must shrink the list', () => {
  const file = 'src/modules/payments/payment-search.ts';
  expect(runCheck({ [file]: RUNS_SQL }, { [file]: 1 }).status).toBe(0);
  expect(runCheck({ [file]: RUNS_SQL + RUNS_SQL }, { [file]: 1 }).output).toContain('runs SQL 2 time(s), 1 allowed');
  expect(runCheck({ [file]: RUNS_SQL }, { [file]: 2 }).output).toContain('lower its count in .raw-sql-allowed.json');
  expect(runCheck({ [file]: BUILDER }, { [file]: 1 }).output).toContain('runs no SQL outside a store any more');
});

test('a $n placeholder fails anywhere above the database platform, even in a store; money in text does not', () => {
  const { status, output } = runCheck({
    'src/modules/payments/payment-store.ts': 'export const S = `select * from "payments" where "id" = $1`;\n',
    'src/modules/notifications/mail-text.ts': '// 123456 -> "$1,234.56"\nexport const t = (s) => s.replace(/x/, \'$1:00\');\n',
  });
  expect(status).toBe(1);
  expect(output).toContain('src/modules/payments/payment-store.ts:1: a $n placeholder');
  expect(output).not.toContain('mail-text');
});
