import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import mutationGlobalSetup, { endedRunDatabases } from '../support/mutation-global-setup';
import { POSTGRES_ADMIN_URL } from '../support/test-env';

/**
 * The mutation runs' own tooling (docs/decisions/0015-mutation-testing.md): `npm run test:mutation -- --changed`
 * picks the listed files changed against a base, and the test sequencer picks the test files a mutant loads.
 * A wrong pick would either waste the run or let mutants survive that the tests would have killed.
 */
const ROOT = path.join(__dirname, '../..');
/** The JSON a script printed, run as an ES module (the Stryker configs and plugins are .mjs): `fileUrl` names a project file for its imports. */
const esmOutput = (script: (fileUrl: (file: string) => string) => string) =>
  JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script((file) => JSON.stringify(`file://${path.join(ROOT, file)}`))], { cwd: ROOT, encoding: 'utf8' }));

describe('--changed mutates only the listed files changed against the base', () => {
  let repo: string;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
  const plan = (...args: string[]) => spawnSync(process.execPath, ['scripts/mutation.mjs', '--list', ...args], { cwd: repo, encoding: 'utf8' });
  const write = (file: string, text = 'export {};\n') => {
    fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    fs.writeFileSync(path.join(repo, file), text);
  };

  beforeAll(() => {
    repo = fs.mkdtempSync(path.join(os.tmpdir(), 'mutation-changed-'));
    for (const file of ['scripts/mutation.mjs', 'stryker.config.mjs', 'stryker.state.config.mjs']) write(file, fs.readFileSync(path.join(ROOT, file), 'utf8'));
    write('src/modules/ledger/fee.ts');
    write('src/modules/withdrawals/withdrawal.service.ts');
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'start');
  });
  afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

  test('nothing listed changed: it says so and succeeds', () => {
    write('src/modules/ledger/balance-store.ts');
    const result = plan('--changed');
    expect(result.stdout).toContain('No mutated rule or state file changed against main');
    expect(result.status).toBe(0);
  });

  test('uncommitted, new and committed files count; a file changed in part keeps its line range; unlisted files do not', () => {
    write('src/modules/ledger/fee.ts', 'export const changed = 1;\n');
    write('src/modules/refunds/refund.service.ts');
    git('checkout', '-q', '-b', 'feature');
    write('src/modules/withdrawals/withdrawal.service.ts', 'export const changed = 1;\n');
    git('add', 'src/modules/withdrawals/withdrawal.service.ts');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'change');
    const result = plan('--changed');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(
      [
        'rules run (stryker.config.mjs):',
        '  src/modules/ledger/fee.ts',
        '  src/modules/withdrawals/withdrawal.service.ts:21-32',
        'state run (stryker.state.config.mjs):',
        '  src/modules/withdrawals/withdrawal.service.ts:39-136',
        '  src/modules/refunds/refund.service.ts',
        '',
      ].join('\n'),
    );
    // Against the feature branch itself only the uncommitted files are left.
    expect(plan('--changed', 'feature').stdout).not.toContain('withdrawal.service.ts');
  });

  test('a base that is not a commit is refused before git diff sees it', () => {
    for (const base of ['no-such-branch', 'main;touch pwned', '--output=pwned']) {
      const result = plan('--changed', base);
      if (base.startsWith('-')) {
        // Read as an option for Stryker, not as a base: the base stays main.
        expect(result.stdout).toContain('rules run');
        continue;
      }
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(`not a commit: ${base}`);
    }
    expect(fs.existsSync(path.join(repo, 'pwned'))).toBe(false);
  });
});

describe('the mutation test sequencer loads only the test files that can judge a mutant', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Sequencer = require('../support/mutation-test-sequencer.cjs');
  let rootDir: string;
  const file = (name: string) => path.join(rootDir, name);
  const context = () => ({ config: { cacheDirectory: rootDir, id: 'unit', haste: {}, globals: { mutationTestsOf: { 'src/modules/a.ts': ['test/unit/a-table.test.ts'] } } }, hasteFS: { getSize: () => 1 } });
  const tests = () => ['test/unit/a.test.ts', 'test/unit/a-table.test.ts', 'test/unit/b.test.ts', 'test/unit/new.test.ts'].map((name) => ({ path: file(name), context: context() }));
  const sequencer = (globalConfig: object) => new Sequencer({ contexts: [context()], globalConfig: { rootDir, ...globalConfig } });
  const picked = (globalConfig: object) => sequencer(globalConfig).sort(tests()).map((test: { path: string }) => path.relative(rootDir, test.path)).sort();

  beforeAll(() => {
    rootDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mutation-sequencer-'));
    const result = (name: string, ...fullNames: string[]) => ({
      testFilePath: file(name),
      numFailingTests: 0,
      perfStats: { runtime: 1 },
      testResults: fullNames.map((fullName) => ({ fullName })),
    });
    // The mutated file as Stryker instrumented it in the sandbox.
    fs.mkdirSync(file('src/modules'), { recursive: true });
    fs.writeFileSync(file('src/modules/a.ts'), 'export const fee = stryMutAct_9fa48("17") ? 0 : (stryCov_9fa48("16", "17"), 15);\n');
    // The initial run: no mutant active.
    sequencer({}).cacheResults(tests(), {
      testResults: [result('test/unit/a.test.ts', 'a fee (1 cent)', 'a fee rounds'), result('test/unit/a-table.test.ts', 'the table'), result('test/unit/b.test.ts', 'b fee')],
    });
    process.env.__STRYKER_ACTIVE_MUTANT__ = '7';
  });
  afterAll(() => {
    delete process.env.__STRYKER_ACTIVE_MUTANT__;
    fs.rmSync(rootDir, { recursive: true, force: true });
  });

  test('a mutant with covering tests runs the files holding them (and files the initial run did not see)', () => {
    expect(picked({ testNamePattern: '(a fee \\(1 cent\\))' })).toEqual(['test/unit/a.test.ts', 'test/unit/new.test.ts']);
    expect(picked({ testNamePattern: '(a fee rounds)|(b fee)' })).toEqual(['test/unit/a.test.ts', 'test/unit/b.test.ts', 'test/unit/new.test.ts']);
  });

  test('a static mutant runs the files listed for its file, else every file', () => {
    expect(picked({ nonFlagArgs: [file('src/modules/a.ts')] })).toEqual(['test/unit/a-table.test.ts']);
    expect(picked({ nonFlagArgs: [file('src/modules/other.ts')] })).toHaveLength(4);
  });

  test("without the mutated file's path, a static mutant's file is found by its id in the instrumented sources", () => {
    for (const mutant of ['16', '17']) {
      process.env.__STRYKER_ACTIVE_MUTANT__ = mutant;
      expect(picked({})).toEqual(['test/unit/a-table.test.ts']);
    }
    // An id placed in no listed file: every file.
    process.env.__STRYKER_ACTIVE_MUTANT__ = '170';
    expect(picked({})).toHaveLength(4);
  });

  test('outside a mutant run every file runs', () => {
    delete process.env.__STRYKER_ACTIVE_MUTANT__;
    try {
      expect(picked({ testNamePattern: '(b fee)' })).toHaveLength(4);
    } finally {
      process.env.__STRYKER_ACTIVE_MUTANT__ = '7';
    }
  });
});

jest.mock('../support/code-cache-environment.cjs', () => class {});

describe('under a mutant, the first failing test ends the run', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Environment = require('../support/shared-context-environment.cjs');
  const FAILED = Symbol.for('payments.mutation.testFailed');
  type Test = { type: 'test'; startedAt?: number; mode?: string; errors: unknown[] };
  const test_ = (startedAt?: number, errors: unknown[] = []): Test => ({ type: 'test', startedAt, errors });
  const handle = (event: object, rootDescribeBlock: object) => Environment.prototype.handleTestEvent.call({}, event, { rootDescribeBlock });

  afterEach(() => {
    delete process.env.__STRYKER_ACTIVE_MUTANT__;
    (globalThis as Record<symbol, unknown>)[FAILED] = false;
  });

  test('a failure skips the tests not yet started, here and in the files after it; passing tests change nothing', async () => {
    process.env.__STRYKER_ACTIVE_MUTANT__ = '3';
    const passed = test_(1);
    const failed = test_(2, [new Error('killed')]);
    const later = test_();
    const nested = test_();
    const file = { children: [passed, failed, { type: 'describeBlock', children: [nested] }, later] };
    await handle({ name: 'test_done', test: passed }, file);
    expect([later.mode, nested.mode]).toEqual([undefined, undefined]);
    await handle({ name: 'test_done', test: failed }, file);
    expect([passed.mode, failed.mode, nested.mode, later.mode]).toEqual([undefined, undefined, 'skip', 'skip']);
    const next = test_();
    await handle({ name: 'run_start' }, { children: [next] });
    expect(next.mode).toBe('skip');
  });

  test('the tests that failed under the latest mutants run first, in their describe block and file; the others keep their order', async () => {
    process.env.__STRYKER_ACTIVE_MUTANT__ = '4';
    type Named = { type: string; name: string; parent?: Named; children?: Named[]; errors?: unknown[] };
    const tree = (): Named => {
      const root: Named = { type: 'describeBlock', name: 'ROOT_DESCRIBE_BLOCK', children: [] };
      const group: Named = { type: 'describeBlock', name: 'group', parent: root, children: [] };
      group.children = ['two', 'three'].map((name) => ({ type: 'test', name, parent: group, errors: [] }));
      root.children = [{ type: 'test', name: 'one', parent: root, errors: [] }, group, { type: 'test', name: 'four', parent: root, errors: [] }];
      return root;
    };
    const order = (block: Named): unknown[] => block.children!.map((child) => (child.children ? { [child.name]: order(child) } : child.name));
    const run = async (failing?: string) => {
      const root = tree();
      await handle({ name: 'run_start' }, root);
      const ran = order(root);
      const flat = (block: Named): Named[] => block.children!.flatMap((child) => (child.children ? flat(child) : [child]));
      const test = flat(root).find((t) => `${t.parent?.parent ? `${t.parent.name} ` : ''}${t.name}` === failing);
      if (test) await handle({ name: 'test_done', test: { ...test, errors: [new Error('killed')] } }, root);
      (globalThis as Record<symbol, unknown>)[FAILED] = false;
      return ran;
    };
    expect(await run('group three')).toEqual(['one', { group: ['two', 'three'] }, 'four']);
    expect(await run('four')).toEqual([{ group: ['three', 'two'] }, 'one', 'four']);
    expect(await run()).toEqual(['four', { group: ['three', 'two'] }, 'one']);
  });

  test('without a mutant (the initial run) every test runs', async () => {
    const later = test_();
    await handle({ name: 'test_done', test: test_(1, [new Error('red')]) }, { children: [later] });
    expect(later.mode).toBeUndefined();
  });
});

describe('a mutation worker loads packages once, and sources once for the mutants that tests cover', () => {
  let dir: string;
  const write = (name: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  };
  const counted = (name: string) => `require('fs').appendFileSync(${JSON.stringify(path.join(dir, 'loads.txt'))}, '${name}\\n');\n`;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shared-modules-runtime-'));
    write('node_modules/a-package/index.js', `${counted('package')}exports.list = () => [];\nexports.later = () => require('./later');\n`);
    write('node_modules/a-package/later.js', `${counted('package, later')}exports.value = 42;\n`);
    // A source as Stryker instruments it: the namespace found at the first call is kept, its active mutant read once.
    write(
      'src/fee.js',
      `${counted('source')}let space;\nconst ns = () => (space ??= globalThis.__stryker__ ??= {});\n` +
        `if (ns().activeMutant === undefined && process.env.__STRYKER_ACTIVE_MUTANT__) ns().activeMutant = process.env.__STRYKER_ACTIVE_MUTANT__;\n` +
        `exports.fee = () => (ns().activeMutant === '1' ? 0 : 15);\nexports.list = () => require('a-package').list();\n`,
    );
    // Two files in either order: each must find the package's arrays its own, nothing the other file left on the
    // global, and a package that requires lazily served after the file that loaded it has ended.
    for (const name of ['first', 'second']) {
      write(
        `${name}.test.js`,
        `const pkg = require('a-package');\nconst { fee } = require('./src/fee');\n` +
          `test('${name} fee', () => {\n  expect(pkg.list()).toBeInstanceOf(Array);\n  expect(globalThis.leftByAFile).toBeUndefined();\n` +
          `  globalThis.leftByAFile = true;\n  expect(pkg.later().value).toBe(42);\n  expect(fee()).toBe(15);\n});\n`,
      );
    }
    write('mocking.test.js', `jest.mock('a-package', () => ({ list: () => 'mocked' }));\nconst { list } = require('./src/fee');\ntest('mocking fee', () => expect(list()).toBe('mocked'));\n`);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('covered mutants share one load of the sources, each seeing its own mutant; static ones and a file with a mock load them afresh', () => {
    const config = {
      rootDir: dir,
      testMatch: ['<rootDir>/*.test.js'],
      transform: {},
      cacheDirectory: path.join(dir, '.cache'),
      testEnvironment: path.join(ROOT, 'test/support/shared-context-environment.cjs'),
      runtime: path.join(ROOT, 'test/support/shared-modules-runtime.cjs'),
      runner: path.join(ROOT, 'test/support/mutation-runner.cjs'),
      testSequencer: path.join(ROOT, 'test/support/mutation-test-sequencer.cjs'),
    };
    // As a Stryker worker runs them, one jest start after another in one process: the initial run, then mutants.
    const covering = '(first fee)|(second fee)';
    const runs = [
      { mutant: undefined, pattern: undefined },
      { mutant: '1', pattern: covering },
      { mutant: '2', pattern: covering },
      { mutant: '4', pattern: 'mocking fee' },
      { mutant: '2', pattern: covering },
      { mutant: '3', pattern: undefined },
      { mutant: '2', pattern: covering },
    ];
    const script = `const fs = require('fs');
      const loads = () => (fs.existsSync(process.argv[3]) ? fs.readFileSync(process.argv[3], 'utf8').trim().split('\\n') : []);
      (async () => {
        const out = [];
        for (const { mutant, pattern } of JSON.parse(process.argv[4])) {
          if (mutant === undefined) delete process.env.__STRYKER_ACTIVE_MUTANT__;
          else process.env.__STRYKER_ACTIVE_MUTANT__ = mutant;
          const before = loads().length;
          const { results } = await require('jest').runCLI({ _: [], config: process.argv[1], runInBand: true, silent: true, testNamePattern: pattern }, [process.argv[2]]);
          out.push({ passed: results.numPassedTests, failed: results.numFailedTests, errors: results.numRuntimeErrorTestSuites, loads: loads().slice(before).sort() });
        }
        console.log(JSON.stringify(out));
      })();`;
    const run = spawnSync(process.execPath, ['-e', script, JSON.stringify(config), dir, path.join(dir, 'loads.txt'), JSON.stringify(runs)], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stderr).not.toMatch(/Error/);
    const [initial, killed, survived, mocking, afterMocking, staticMutant, afterStatic] = JSON.parse(run.stdout.trim().split('\n').pop() ?? '[]');
    // Each file loads the sources itself; the package once, and what it requires later once.
    expect(initial).toEqual({ passed: 3, failed: 0, errors: 0, loads: ['package', 'package, later', 'source', 'source', 'source'] });
    // The first covered mutant loads the sources once (its first failure ends the run); the next finds them loaded and
    // sees its own mutant.
    expect(killed).toEqual({ passed: 0, failed: 1, errors: 0, loads: ['source'] });
    expect(survived).toEqual({ passed: 2, failed: 0, errors: 0, loads: [] });
    // A file mocking a package loads the sources afresh, and the next run does not trust those loaded before.
    expect(mocking).toEqual({ passed: 1, failed: 0, errors: 0, loads: ['source'] });
    expect(afterMocking).toEqual({ passed: 2, failed: 0, errors: 0, loads: ['source'] });
    // A static mutant's run loads them afresh for each file, and leaves none behind.
    expect(staticMutant).toEqual({ passed: 3, failed: 0, errors: 0, loads: ['source', 'source', 'source'] });
    expect(afterStatic).toEqual({ passed: 2, failed: 0, errors: 0, loads: ['source'] });
  });
});

describe('module tests of a mutation worker share their databases while the sources stay loaded', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { keepsSources, shareDatabases } = require('../support/shared-modules-runtime.cjs');
  const RUN = Symbol.for('payments.mutation.run');
  const DATABASES = Symbol.for('payments.mutation.databases');
  afterEach(() => delete (globalThis as Record<symbol, unknown>)[RUN]);

  test('a shared run hands its files one set of databases; forgetting the sources closes them; other runs get none', async () => {
    (globalThis as Record<symbol, unknown>)[RUN] = { shared: true };
    keepsSources();
    const first: Record<symbol, Map<string, Promise<{ close(): Promise<void> }>>> = {};
    await shareDatabases(first);
    const close = jest.fn(async () => undefined);
    first[DATABASES].set('2 postgresql://db', Promise.resolve({ close }));
    const second: typeof first = {};
    await shareDatabases(second);
    expect(second[DATABASES]).toBe(first[DATABASES]);

    // No source was loaded meanwhile: the next file loads them afresh, and the databases holding the old ones go.
    expect(keepsSources()).toBe(false);
    const third: typeof first = {};
    await shareDatabases(third);
    expect(close).toHaveBeenCalledTimes(1);
    expect(third[DATABASES].size).toBe(0);

    (globalThis as Record<symbol, unknown>)[RUN] = { shared: false };
    const fresh: typeof first = { [DATABASES]: new Map() };
    await shareDatabases(fresh);
    expect(fresh[DATABASES]).toBeUndefined();
  });
});

describe('a state mutation worker keeps one database, and only ended runs lose theirs', () => {
  const now = Date.UTC(2026, 5, 1, 12);
  test('dropped: no session and made more than a minute ago; kept: in use, just made, or no time in its name', () => {
    const rows = [
      { datname: `payments_mutation_${now - 120_000}_0a1b2c3d4e`, sessions: 0 },
      { datname: `payments_mutation_${now - 120_000}_5f6a7b8c9d`, sessions: 1 },
      { datname: `payments_mutation_${now - 10_000}_0a1b2c3d4e`, sessions: 0 },
      { datname: 'payments_mutation_28138_0a1b2c3d4e', sessions: 0 },
      { datname: 'payments_mutation_x_0a1b2c3d4e', sessions: 0 },
    ];
    expect(endedRunDatabases(rows, now)).toEqual([`payments_mutation_${now - 120_000}_0a1b2c3d4e`]);
  });

  test('later starts reuse the database, which its session marks in use; a database dropped under it is replaced', async () => {
    const saved = { ...process.env };
    const admin = new Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    const sessions = async (name: string) =>
      (await admin.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [name])).rows[0].n;
    const names: string[] = [];
    try {
      for (const key of ['TEST_DATABASE_NAMES', 'TEST_DATABASE_URLS', 'TEST_REDIS_PREFIX']) delete process.env[key];
      await mutationGlobalSetup();
      const first = process.env.TEST_DATABASE_NAMES ?? '';
      names.push(first);
      expect(first).toMatch(/^payments_mutation_\d{13}_[0-9a-f]{10}$/);
      expect(await sessions(first)).toBe(1);
      await mutationGlobalSetup();
      expect(process.env.TEST_DATABASE_NAMES).toBe(first);

      await admin.query(`drop database "${first}" with (force)`);
      // The held session learns of it when the server ends it, a moment later.
      for (const deadline = Date.now() + 10_000; process.env.TEST_DATABASE_NAMES === first && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await mutationGlobalSetup();
      }
      const second = process.env.TEST_DATABASE_NAMES ?? '';
      names.push(second);
      expect(second).not.toBe(first);
      expect(await sessions(second)).toBe(1);
    } finally {
      for (const name of names) await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
      process.env = saved;
    }
  });
});

test("the mutation runs' jest settings survive Stryker's JSON hand-over: no database hooks of jest.config.js, the sandbox's environment", () => {
  const [rules, state] = esmOutput(
    (fileUrl) => `const configs = await Promise.all([${fileUrl('stryker.config.mjs')}, ${fileUrl('stryker.state.config.mjs')}].map((file) => import(file)));
      console.log(JSON.stringify(configs.map((config) => JSON.parse(JSON.stringify(config.default.jest.config)))));`,
  );
  // An undefined key would vanish here, and jest.config.js's hook would run for every mutant.
  expect(rules).toMatchObject({ globalSetup: null, globalTeardown: null });
  expect(state).toMatchObject({ globalSetup: '<rootDir>/test/support/mutation-global-setup.ts', globalTeardown: null });
  // Stryker resolves the environment from its worker's directory: relative, it is the sandbox's copy, which shares the
  // runtime's state; an absolute path into the project would load a second copy that sees none of it.
  for (const config of [rules, state]) expect(config.testEnvironment).toBe('./test/support/shared-context-environment.cjs');
});

test('the mutation runs leave row locks and re-reads alone, and still mutate the rest of a query', () => {
  const source = `async function f(tx) {
    await tx.findOneOrFail(Payment, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    await tx.findOneOrFail(Refund, { id }, { populate: ['payment'], refresh: true });
    logger.info('left alone');
    return { effect: 'waiting' };
  }`;
  const ignored = esmOutput(
    (fileUrl) => `import { transformSync, traverse } from '@babel/core';
      const { strykerPlugins } = await import(${fileUrl('test/support/mutation-ignorers.mjs')});
      const { ast } = transformSync(${JSON.stringify(source)}, { ast: true, code: false, configFile: false, babelrc: false });
      const ignored = [];
      traverse(ast, { enter(path) { if (strykerPlugins[0].value.shouldIgnore(path)) ignored.push(path.toString()); } });
      console.log(JSON.stringify(ignored));`,
  );
  expect(ignored).toEqual(['{\n  lockMode: LockMode.PESSIMISTIC_WRITE\n}', 'lockMode: LockMode.PESSIMISTIC_WRITE', 'refresh: true', "logger.info('left alone');"]);
});
