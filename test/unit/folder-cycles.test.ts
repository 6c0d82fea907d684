import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The folder-level cycle check (scripts/folder-cycles.mjs, run by `npm test`) on small made-up dependency lists in
 * dependency-cruiser's JSON shape: it must fail on any pair of folders importing each other both ways, and pass
 * otherwise, or it guards nothing.
 */
const SCRIPT = path.join(__dirname, '../../scripts/folder-cycles.mjs');

type Import = [from: string, to: string, typeOnly?: 'type-only'];

function cruiseResult(imports: Import[]) {
  const modules = new Map<string, { source: string; dependencies: object[] }>();
  for (const [from, to, typeOnly] of imports) {
    if (!modules.has(from)) modules.set(from, { source: from, dependencies: [] });
    modules.get(from)!.dependencies.push({
      resolved: to,
      couldNotResolve: false,
      dependencyTypes: typeOnly ? ['local', 'type-only', 'import'] : ['local', 'import'],
    });
  }
  return { modules: [...modules.values()] };
}

function runCheck(imports: Import[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folder-cycles-'));
  try {
    const cruiseFile = path.join(dir, 'cruise.json');
    fs.writeFileSync(cruiseFile, JSON.stringify(cruiseResult(imports)));
    const run = spawnSync(process.execPath, [SCRIPT, '--cruise-result', cruiseFile], { encoding: 'utf8' });
    return { status: run.status, output: run.stdout + run.stderr };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const ONE_WAY: Import[] = [
  ['src/modules/refunds/refund.service.ts', 'src/modules/payments/payment.entity.ts'],
  ['src/modules/refunds/refund.service.ts', 'src/shared/errors.ts'],
  ['src/apps/main.ts', 'src/modules/refunds/refund.service.ts'],
];
const BACK_AT_RUNTIME: Import = ['src/modules/payments/payment-export.ts', 'src/modules/refunds/refund.entity.ts'];

describe('the folder-level cycle check', () => {
  test('passes when every arrow between folders points one way', () => {
    const { status, output } = runCheck(ONE_WAY);
    expect(output).toContain('no two folders import each other both ways');
    expect(status).toBe(0);
  });

  test('fails on a pair importing both ways at runtime, naming the file imports of each side', () => {
    const { status, output } = runCheck([...ONE_WAY, BACK_AT_RUNTIME]);
    expect(status).toBe(1);
    expect(output).toContain('modules/payments <-> modules/refunds');
    expect(output).toContain('src/modules/payments/payment-export.ts -> src/modules/refunds/refund.entity.ts');
    expect(output).toContain('src/modules/refunds/refund.service.ts -> src/modules/payments/payment.entity.ts');
  });

  test('counts type-only imports: one side naming only types is still a pair', () => {
    const { status, output } = runCheck([...ONE_WAY, ['src/modules/payments/payment.entity.ts', 'src/modules/refunds/refund.entity.ts', 'type-only']]);
    expect(status).toBe(1);
    expect(output).toContain('modules/payments <-> modules/refunds');
  });

  test('sees an upward path through the root ORM config', () => {
    const { status, output } = runCheck([
      ['src/platform/db/database.ts', 'mikro-orm.config.ts'],
      ['mikro-orm.config.ts', 'src/platform/db/orm-config.ts'],
    ]);
    expect(status).toBe(1);
    expect(output).toContain('platform/db <-> root config');
  });

  test('fails on a pair across layers too', () => {
    const imports: Import[] = [...ONE_WAY, ['src/platform/http/caller.ts', 'src/modules/admins/admin.entity.ts', 'type-only'], ['src/modules/admins/admin.entity.ts', 'src/platform/http/caller.ts']];
    const { status, output } = runCheck(imports);
    expect(status).toBe(1);
    expect(output).toContain('modules/admins <-> platform/http');
  });

  test('a file imported once for a type and once for a value is a runtime import', () => {
    const { status } = runCheck([
      ...ONE_WAY,
      ['src/modules/payments/payment-export.ts', 'src/modules/refunds/refund.entity.ts', 'type-only'],
      BACK_AT_RUNTIME,
    ]);
    expect(status).toBe(1);
  });

  test('imports inside one room, and arrows into the entry points (src/apps/), make no pair', () => {
    const { status } = runCheck([
      ...ONE_WAY,
      ['src/modules/refunds/refund.entity.ts', 'src/modules/refunds/refund.service.ts'],
      ['src/modules/payments/payment.entity.ts', 'src/apps/main.ts'],
    ]);
    expect(status).toBe(0);
  });
});

/** The room of each file, as the script sees it (run in node: the script is an ES module). */
function roomsOf(files: string[]): Array<string | null> {
  const program = `import(${JSON.stringify(SCRIPT)}).then((m) => console.log(JSON.stringify(${JSON.stringify(files)}.map(m.folderOf))))`;
  return JSON.parse(spawnSync(process.execPath, ['-e', program], { encoding: 'utf8' }).stdout);
}

describe('the rooms of src/', () => {
  test('are the modules and platform pieces one by one, the shared kernel, the entry points, and the lifecycle tables together', () => {
    const files = {
      'src/modules/payments/payment.entity.ts': 'modules/payments',
      'src/platform/db/migrations/Migration20261123000000_initial.ts': 'platform/db',
      'src/shared/cents.ts': 'shared',
      'src/apps/main.ts': 'apps',
      'src/modules/loaders.ts': 'modules',
      'src/modules/refunds/refund.lifecycle.ts': 'lifecycle tables',
      'src/modules/lifecycles.ts': 'lifecycle tables',
      'src/platform/lifecycle/lifecycle.ts': 'lifecycle tables',
      'src/platform/lifecycle/apply-move.ts': 'platform/lifecycle',
    };
    expect(roomsOf(Object.keys(files))).toEqual(Object.values(files));
  });
});
