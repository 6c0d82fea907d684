/**
 * The test environment of every run (jest.config.js) and the mutation runs (stryker.config.mjs): the code cache's
 * (code-cache-environment.cjs), with three changes, the first for mutation runs only.
 *
 * Once a test has failed under a mutant, every test not yet started is skipped, with the set-up hooks no test needs
 * any more. One failure is all Stryker needs to count a mutant killed, and Jest, started by Stryker, cannot bail by
 * itself. The flag lives for one jest run: the test sequencer (mutation-test-sequencer.cjs) clears it at the start.
 *
 * Every test file of a worker runs in one VM context, so that the modules the runtime loads once per worker
 * (shared-modules-runtime.cjs) run in the realm of the code calling them. Each file still starts as in a fresh context: its
 * own `process` (whose env names the active mutant) and config globals, none of the globals earlier files left but
 * those the shared modules made, and none of their timers running.
 *
 * Stryker's instrumented code keeps the namespace object it first found (`__stryker__`) and reads the active mutant
 * from the environment variable only once: for sources loaded once to follow each mutant, every file gets the one
 * namespace Stryker's jest runner keeps for the worker, its active mutant set from this file's `process.env`.
 */
const path = require('node:path');
const CodeCacheEnvironment = require('./code-cache-environment.cjs');
const { keepsSources, keptGlobals, shareDatabases } = require('./shared-modules-runtime.cjs');

const ACTIVE_MUTANT = '__STRYKER_ACTIVE_MUTANT__';
const FAILED = Symbol.for('payments.mutation.testFailed');
/** The first file's context, what Jest built around it and the globals it began with, for the worker's lifetime. */
let shared;

/**
 * The globals the earlier files left go, as in a fresh context: jest-circus's and expect's state, the test functions,
 * and those the sources made unless they stay loaded (type-graphql's metadata). Those the shared modules made stay.
 * MikroORM's entity metadata (a package's, holding the sources' entities) is emptied in place when the sources load
 * afresh (its MetadataStorage holds the object): left, each load of the entities would add their hooks and indexes again.
 */
function forgetEarlierFiles(global, sourcesKept) {
  const kept = keptGlobals();
  for (const key of Reflect.ownKeys(global)) {
    if (!shared.baseline.has(key) && !kept.has(key)) delete global[key];
  }
  const entities = global['mikro-orm-metadata'];
  if (entities && !sourcesKept) for (const key of Object.keys(entities)) delete entities[key];
  // Jest's global keeps each value it lost, to empty it when the context ends; here the context lives on.
  if (Array.isArray(shared.globalProxy?.leftovers)) shared.globalProxy.leftovers.length = 0;
}

/** Stryker's jest runner's state for this worker: its `instrumenterContext` is the namespace of the instrumented code. */
const strykerState = (() => {
  try {
    const runner = path.dirname(require.resolve('@stryker-mutator/jest-runner/package.json'));
    return require(path.join(runner, 'dist/src/jest-plugins/messaging.cjs')).state;
  } catch {
    return undefined;
  }
})();

function nameActiveMutant(global, config) {
  const namespace = strykerState?.instrumenterContext;
  if (!namespace) return;
  global[config.projectConfig.globals?.__strykerGlobalNamespace__ ?? '__stryker__'] = namespace;
  const mutant = global.process.env[ACTIVE_MUTANT];
  if (mutant === undefined) delete namespace.activeMutant;
  else namespace.activeMutant = mutant;
}

/**
 * Timers a file started and left running (a logger's flush every second, for one) would keep that file's modules
 * alive for the worker's lifetime, and a worker runs hundreds of files: they are counted here and stopped with it.
 */
const fileTimers = new Set();
function countTimers(global) {
  for (const name of ['setTimeout', 'setInterval']) {
    const start = globalThis[name];
    const counted = (...args) => {
      const timer = start(...args);
      fileTimers.add(timer);
      return timer;
    };
    Object.defineProperties(counted, Object.getOwnPropertyDescriptors(start));
    global[name] = counted;
  }
}

class MutationEnvironment extends CodeCacheEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    const own = this.global;
    const sourcesKept = keepsSources();
    if (!shared) {
      const { context, _globalProxy: globalProxy, moduleMocker, fakeTimers, fakeTimersModern } = this;
      shared = { context, global: own, globalProxy, baseline: new Set(Reflect.ownKeys(own)), moduleMocker, fakeTimers, fakeTimersModern };
    } else {
      forgetEarlierFiles(shared.global, sourcesKept);
      // This file's process and config globals, made by Jest for the fresh context just built, move to the shared one.
      shared.global.process = own.process;
      for (const name of Object.keys(config.projectConfig.globals ?? {})) shared.global[name] = own[name];
      const { context, global, moduleMocker, fakeTimers, fakeTimersModern } = shared;
      Object.assign(this, { context, global, moduleMocker, fakeTimers, fakeTimersModern });
    }
    nameActiveMutant(this.global, config);
    this.closingDatabases = shareDatabases(this.global);
    countTimers(this.global);
  }

  async setup() {
    await super.setup();
    // Those opened with the sources forgotten, before this file opens its own.
    await this.closingDatabases;
  }

  async teardown() {
    // The context stays for the next file; only what a file may have switched on is switched off.
    this.fakeTimers?.useRealTimers();
    this.fakeTimersModern?.useRealTimers();
    for (const timer of fileTimers) clearTimeout(timer);
    fileTimers.clear();
  }

  async handleTestEvent(event, state) {
    if (process.env[ACTIVE_MUTANT] === undefined) return;
    if (event.name === 'run_start') killersFirst(state.rootDescribeBlock);
    if (event.name === 'test_done' && event.test.errors.length > 0) {
      globalThis[FAILED] = true;
      kills.lastTest.set(fullName(event.test), ++kills.count);
      kills.lastFile.set(this.testPath, kills.count);
    }
    if (globalThis[FAILED] && (event.name === 'run_start' || event.name === 'test_done')) skipNotStarted(state.rootDescribeBlock);
  }
}

/**
 * Which test failed last under a mutant, and in which file (test full name or path -> a count that grows), for this
 * worker. Stryker takes the mutants of a file in order, so the test that failed under the last one is the likeliest
 * to fail under the next one, of the same code: the tests that failed most lately run first, the rest in their order
 * (mutation-test-sequencer.cjs orders the files so). Tests that run with others' rows in the database, and only in
 * part (Stryker runs the tests that reach the mutant), do not depend on their order.
 */
const kills = (globalThis[Symbol.for('payments.mutation.kills')] ??= { count: 0, lastTest: new Map(), lastFile: new Map() });

function killersFirst(block) {
  const last = new Map();
  const lastOf = (child) => {
    if (!last.has(child)) last.set(child, child.type === 'describeBlock' ? killersFirst(child) : (kills.lastTest.get(fullName(child)) ?? 0));
    return last.get(child);
  };
  // Array sort is stable: tests that never failed keep their order.
  block.children.sort((a, b) => lastOf(b) - lastOf(a));
  return Math.max(0, ...block.children.map(lastOf));
}

/** A test's full name as Stryker's jest runner gives it: the describe names and its own, with spaces. */
function fullName(test) {
  const names = [];
  for (let block = test; block && block.parent; block = block.parent) names.unshift(block.name);
  return names.join(' ');
}

function skipNotStarted(block) {
  for (const child of block.children) {
    if (child.type === 'describeBlock') skipNotStarted(child);
    else if (child.startedAt == null) child.mode = 'skip';
  }
}

module.exports = MutationEnvironment;
