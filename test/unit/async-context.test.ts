import { execFileSync } from 'node:child_process';
import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { enableAsyncContextOnlyWhileRunning } from '../../src/shared/async-context';

// Jest's own runner keeps a storage of its own enabled, so inside this process Node's promise hook is on
// whatever we do: here we look at each storage's `enabled` flag (Node 20's async_hooks storage), and the
// last test looks at the hook itself in a plain Node process.
const enabled = (storage: AsyncLocalStorage<unknown>) => (storage as unknown as { enabled: boolean }).enabled;

beforeAll(() => enableAsyncContextOnlyWhileRunning());

test('inside a run the value follows awaits and timers, and concurrent runs keep their own', async () => {
  const storage = new AsyncLocalStorage<string>();
  const seen = async (name: string) =>
    storage.run(name, async () => {
      await sleep(3);
      const afterTimer = await new Promise<string | undefined>((resolve) => setTimeout(() => resolve(storage.getStore()), 2));
      return [storage.getStore(), afterTimer];
    });
  expect(await Promise.all([seen('a'), seen('b')])).toEqual([['a', 'a'], ['b', 'b']]);
});

test('the promise hook is on while a run is unfinished and off once every run has finished', async () => {
  const storage = new AsyncLocalStorage<number>();
  let finish!: () => void;
  const first = storage.run(1, () => new Promise<void>((resolve) => (finish = resolve)));
  const second = storage.run(2, async () => sleep(1));
  await second;
  expect(enabled(storage)).toBe(true);
  finish();
  await first;
  expect(enabled(storage)).toBe(false);
  expect(storage.getStore()).toBeUndefined();
});

test('a nested run of the same storage keeps it on until the outer one ends', async () => {
  const storage = new AsyncLocalStorage<string>();
  const values = await storage.run('outer', async () => {
    const inner = await storage.run('inner', async () => storage.getStore());
    await sleep(2);
    return [inner, storage.getStore(), enabled(storage)];
  });
  expect(values).toEqual(['inner', 'outer', true]);
  expect(enabled(storage)).toBe(false);
});

test('a run that throws or rejects still counts as finished, and its caller still gets the error', async () => {
  const storage = new AsyncLocalStorage<number>();
  expect(() => storage.run(1, () => { throw new Error('sync'); })).toThrow('sync');
  expect(enabled(storage)).toBe(false);
  await expect(storage.run(2, async () => { await sleep(1); throw new Error('async'); })).rejects.toThrow('async');
  expect(enabled(storage)).toBe(false);
  expect(storage.run(3, () => 'plain value')).toBe('plain value');
  expect(enabled(storage)).toBe(false);
});

test('applying it twice changes nothing', async () => {
  const run = AsyncLocalStorage.prototype.run;
  enableAsyncContextOnlyWhileRunning();
  expect(AsyncLocalStorage.prototype.run).toBe(run);
  const storage = new AsyncLocalStorage<number>();
  await storage.run(1, async () => sleep(1));
  expect(enabled(storage)).toBe(false);
});

test('a storage given a value with enterWith stays enabled, as that value has no end', async () => {
  const storage = new AsyncLocalStorage<string>();
  try {
    const later = new Promise<string | undefined>((resolve) => setImmediate(() => {
      storage.enterWith('entered');
      setTimeout(() => resolve(storage.getStore()), 20);
    }));
    await storage.run('run', async () => sleep(1)); // ends before the timer fires
    expect(enabled(storage)).toBe(true);
    expect(await later).toBe('entered');
  } finally {
    storage.disable();
  }
});

test('in a plain Node process the promise hook is off again once the runs have finished', () => {
  // The module compiled by SWC, as jest does, then run in a fresh process without jest's storage.
  const script = `
    const { transformFileSync } = require('@swc/core');
    const { code } = transformFileSync(${JSON.stringify(path.join(__dirname, '../../src/shared/async-context.ts'))},
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } });
    const module_ = { exports: {} };
    new Function('module', 'exports', 'require', code)(module_, module_.exports, require);
    const { AsyncLocalStorage } = require('node:async_hooks');
    const { setTimeout: sleep } = require('node:timers/promises');
    // A new promise carries async-id symbols while the hook is on; Node applies a change on a later turn.
    const hookIsOn = async () => { await sleep(5); return Object.getOwnPropertySymbols(Promise.resolve()).length > 0; };
    (async () => {
      const seen = [];
      for (const patched of [false, true]) {
        if (patched) module_.exports.enableAsyncContextOnlyWhileRunning();
        const storage = new AsyncLocalStorage();
        await storage.run(1, async () => { await sleep(1); seen.push(await hookIsOn()); });
        seen.push(await hookIsOn());
        storage.disable();
      }
      process.stdout.write(JSON.stringify(seen));
    })();
  `;
  const seen = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: path.join(__dirname, '../..'), encoding: 'utf8' }));
  // Unpatched: on inside the run and still on after it. Patched: on inside, off after.
  expect(seen).toEqual([true, true, true, false]);
});
