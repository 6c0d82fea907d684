import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The fixture rule (scripts/suite-fixtures.mjs, run by `npm test`) on made-up test files: it must fail on a breach. */
const SCRIPT = path.join(__dirname, '../../scripts/suite-fixtures.mjs');

function runCheck(files: Record<string, string>, allowed: string[] = []) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'suite-fixtures-'));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  fs.writeFileSync(path.join(root, '.suite-fixtures-allowed.json'), JSON.stringify({ files: allowed }));
  const result = spawnSync(process.execPath, [SCRIPT, '--root', root], { encoding: 'utf8' });
  fs.rmSync(root, { recursive: true, force: true });
  return { status: result.status, output: result.stdout + result.stderr };
}

const IN_HOOK = 'let service;\nbeforeAll(async () => {\n  service = await startTestService({});\n});\n';
const FIXTURE = "const service = useTestService();\ntest('x', async () => {\n  const rival = await startTestService({});\n  await rival.stop();\n});\n";

test('a fixture, and a second instance started inside a test, pass; support files are not suites', () => {
  const { status } = runCheck({ 'test/integration/payments/a.test.ts': FIXTURE, 'test/support/test-service.ts': IN_HOOK });
  expect(status).toBe(0);
});

test('a hook that starts a service or opens the database itself fails, with its line', () => {
  const { status, output } = runCheck({ 'test/integration/payments/a.test.ts': IN_HOOK, 'test/module/b.test.ts': 'beforeEach(() => openDatabase(config, logger));\n' });
  expect(status).toBe(1);
  expect(output).toContain('test/integration/payments/a.test.ts:3: a hook starts a service itself');
  expect(output).toContain('test/module/b.test.ts:1: a hook starts a service itself');
});

test('the list of files left only shrinks: a listed file that no longer starts one fails until it is removed', () => {
  expect(runCheck({ 'test/integration/payments/a.test.ts': IN_HOOK }, ['test/integration/payments/a.test.ts']).status).toBe(0);
  expect(runCheck({ 'test/integration/payments/a.test.ts': FIXTURE }, ['test/integration/payments/a.test.ts']).output).toContain('remove it from .suite-fixtures-allowed.json');
});
