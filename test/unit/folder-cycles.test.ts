import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The folder-level cycle check (scripts/folder-cycles.mjs, run by `npm test`) on small made-up dependency lists in
 * dependency-cruiser's JSON shape: it must fail on a new pair of folders importing each other both ways and on a
 * listed pair that is gone, and pass otherwise, or it guards nothing.
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

function runCheck(imports: Import[], allowed: Array<[string, string]> = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folder-cycles-'));
  try {
    const cruiseFile = path.join(dir, 'cruise.json');
    const allowedFile = path.join(dir, 'allowed.json');
    fs.writeFileSync(cruiseFile, JSON.stringify(cruiseResult(imports)));
    fs.writeFileSync(allowedFile, JSON.stringify({ pairs: allowed.map((folders) => ({ folders, why: 'a test' })) }));
    const run = spawnSync(process.execPath, [SCRIPT, '--cruise-result', cruiseFile, '--allowed', allowedFile], { encoding: 'utf8' });
    return { status: run.status, output: run.stdout + run.stderr };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const ONE_WAY: Import[] = [
  ['src/refunds/refund.service.ts', 'src/payments/payment.entity.ts'],
  ['src/refunds/refund.service.ts', 'src/shared/errors.ts'],
  ['src/main.ts', 'src/refunds/refund.service.ts'],
];
const BACK_AT_RUNTIME: Import = ['src/payments/payment-export.ts', 'src/refunds/refund.entity.ts'];

describe('the folder-level cycle check', () => {
  test('passes when every arrow between folders points one way', () => {
    const { status, output } = runCheck(ONE_WAY);
    expect(output).toContain('no new both-way folder pair');
    expect(status).toBe(0);
  });

  test('fails on a new pair importing both ways at runtime, naming the file imports of each side', () => {
    const { status, output } = runCheck([...ONE_WAY, BACK_AT_RUNTIME]);
    expect(status).toBe(1);
    expect(output).toContain('payments <-> refunds');
    expect(output).toContain('src/payments/payment-export.ts -> src/refunds/refund.entity.ts');
    expect(output).toContain('src/refunds/refund.service.ts -> src/payments/payment.entity.ts');
  });

  test('passes when one side is type-only imports (the two sides of an ORM relation)', () => {
    const { status } = runCheck([...ONE_WAY, ['src/payments/payment.entity.ts', 'src/refunds/refund.entity.ts', 'type-only']]);
    expect(status).toBe(0);
  });

  test('a file imported once for a type and once for a value is a runtime import', () => {
    const { status } = runCheck([
      ...ONE_WAY,
      ['src/payments/payment-export.ts', 'src/refunds/refund.entity.ts', 'type-only'],
      BACK_AT_RUNTIME,
    ]);
    expect(status).toBe(1);
  });

  test('passes on a pair the ratchet file lists, whichever way round', () => {
    expect(runCheck([...ONE_WAY, BACK_AT_RUNTIME], [['refunds', 'payments']]).status).toBe(0);
  });

  test('fails on a listed pair that no longer imports both ways, so the list only shrinks', () => {
    const { status, output } = runCheck(ONE_WAY, [['payments', 'refunds']]);
    expect(status).toBe(1);
    expect(output).toContain('no longer import each other both ways');
    expect(output).toContain('payments <-> refunds');
  });

  test('imports inside one folder and from the entry files in src/ are no folder arrows', () => {
    const { status } = runCheck([
      ...ONE_WAY,
      ['src/refunds/refund.entity.ts', 'src/refunds/refund.service.ts'],
      ['src/payments/payment.entity.ts', 'src/main.ts'],
    ]);
    expect(status).toBe(0);
  });
});
