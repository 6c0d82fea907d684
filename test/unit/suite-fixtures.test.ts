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

describe('an ORM or a server of its own, started in a hook', () => {
  const files = {
    'test/module/orm.test.ts': "let orm;\nbeforeAll(async () => {\n  orm = await MikroORM.init(ormConfig(url, 2, 300));\n});\n",
    'test/module/orm-sync.test.ts': 'beforeEach(() => {\n  orm = MikroORM.initSync(options);\n  other = new MikroORM(options);\n});\n',
    'test/integration/platform/server.test.ts': 'beforeAll(async () => {\n  receiver = http.createServer(answer);\n  await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));\n});\n',
    'test/integration/api/app.test.ts': 'beforeAll(() => {\n  server = app.listen(0);\n});\n',
  };

  test('each fails, with its lines and what it starts', () => {
    const { status, output } = runCheck(files);
    expect(status).toBe(1);
    expect(output).toContain('test/module/orm.test.ts:3: a hook starts a service itself (MikroORM.init)');
    expect(output).toContain('test/module/orm-sync.test.ts:2,3: a hook starts a service itself (MikroORM.initSync; new MikroORM)');
    expect(output).toContain('test/integration/platform/server.test.ts:2,3: a hook starts a service itself (http.createServer; receiver.listen)');
    expect(output).toContain('test/integration/api/app.test.ts:2: a hook starts a service itself (app.listen)');
  });

  test('the same inside a test, an event subscription named listen, and a fake peer through suiteFixture pass', () => {
    const inTest = "test('x', async () => {\n  const orm = await MikroORM.init(options);\n  const server = http.createServer().listen(0);\n});\n";
    const subscription = 'beforeEach(() => {\n  stop = MAILS_COMMITTED.listen(() => wakes++);\n});\n';
    const fixture = "async function startTrap() {\n  return net.createServer().listen(0);\n}\nconst trap = suiteFixture('trap', startTrap, (t) => t.close());\n";
    expect(runCheck({ 'test/module/a.test.ts': inTest, 'test/module/b.test.ts': subscription, 'test/module/c.test.ts': fixture }).status).toBe(0);
  });
});

describe('through functions of the same file that a hook calls', () => {
  test('a function that starts, or calls one that does, fails at the line of the call in the hook', () => {
    const viaHelpers =
      'async function openOrm() {\n  return MikroORM.init(options);\n}\n' +
      'const startWith = async (env) => {\n  const service = await startTestService(env);\n  return { service };\n};\n' +
      'const startPeer = function () {\n  return startFake();\n};\nfunction startFake() {\n  return net.createServer().listen(0);\n}\n' +
      'beforeAll(async () => {\n  orm = await openOrm();\n  ctx = await startWith({});\n});\n' +
      'beforeEach(async () => {\n  peer = await startPeer();\n});\n';
    const { status, output } = runCheck({ 'test/integration/platform/helpers.test.ts': viaHelpers });
    expect(status).toBe(1);
    expect(output).toContain(
      'test/integration/platform/helpers.test.ts:15,16,19: a hook starts a service itself (openOrm → MikroORM.init; startWith → startTestService; startPeer → startFake → net.createServer().listen)',
    );
  });

  test('a hook that is such a function itself fails', () => {
    const byReference = 'async function startReceiver() {\n  server = http.createServer();\n}\nbeforeAll(startReceiver);\n';
    expect(runCheck({ 'test/module/d.test.ts': byReference }).output).toContain('test/module/d.test.ts:4: a hook starts a service itself (startReceiver → http.createServer)');
  });

  test('such a function called inside a test passes', () => {
    const inTest = "async function onOwnConnection(work) {\n  const orm = await MikroORM.init(options);\n  try {\n    return await work(orm);\n  } finally {\n    await orm.close();\n  }\n}\ntest('x', () => onOwnConnection(async () => undefined));\n";
    expect(runCheck({ 'test/module/ledger.test.ts': inTest }).status).toBe(0);
  });
});
