/**
 * Jest's module runtime for every run (jest.config.js) and the mutation runs (stryker.config.mjs): modules a worker
 * has loaded once serve every later test file (and mutant), where Jest would load them afresh for each. A module test
 * loads about 1,700 package modules (MikroORM, knex, graphql, ...) behind ~200 of ours: evaluating and resolving them
 * again was most of a mutant's time, and a fifth of `npm test`'s CPU.
 *  - Packages (node_modules) load once per worker: they are not mutated. So do those Jest loads into each file's
 *    context for itself (expect, jest-snapshot, pretty-format: two thirds of a jest start), except jest-circus, which
 *    holds the file's tests and event handlers.
 *  - The project's sources (src/) load afresh for each file, except in a mutation run: there they load once for all
 *    the runs of mutants that tests cover. Stryker's instrumented code asks at each call which mutant is active (the
 *    environment names it for each run), so one loaded copy serves them all, as Stryker's other test runners do. A
 *    mutant met while modules load or in a hook (static) needs them loaded with it active: such runs, and the initial
 *    run, load every source afresh for each file and leave none behind. So does a file that mocks a module
 *    (`jest.mock`), whose sources must see its mock.
 *  - Test files and test/support load per file, as always. The databases module tests open stay open with the
 *    sources (test/support/module-database.ts), and close when these are forgotten.
 *
 * The environment (shared-context-environment.cjs) keeps one VM context per worker for this, since a module must run
 * in the realm of the code calling it (its arrays, errors and promises would be foreign in another), and empties the
 * globals a file left, except those the shared modules made while loading (`keptGlobals`).
 */
const path = require('node:path');
const { isBuiltin } = require('node:module');
const Runtime = require('jest-runtime').default;

const NODE_MODULES = `${path.sep}node_modules${path.sep}`;
/** Jest's own packages, as a test file requires them (`expect`, `@jest/globals`): its own copies. */
const PER_FILE = /[\\/]node_modules[\\/](?:@jest[\\/]|jest-[^\\/]+[\\/]|expect[\\/]|pretty-format[\\/])/;
/** Of the packages Jest loads into each file's context for itself, jest-circus holds the file's tests and handlers. */
const PER_FILE_FRAMEWORK = /[\\/]node_modules[\\/]jest-circus[\\/]/;
/** What the test sequencer says of the jest run starting: `{ shared }`, true for a mutant that tests cover. */
const RUN = Symbol.for('payments.mutation.run');

/** A set of modules loaded once: path -> the module object Jest loaded it into, and the globals made meanwhile. */
function sharedSet() {
  return { modules: new Map(), globals: new Set(), loading: 0 };
}
const packages = sharedSet();
const framework = sharedSet();
const sources = sharedSet();
/** Jest's resolutions (file \0 name -> path), kept for the worker's lifetime: files do not move during a run. */
const resolutions = new Map();
/** The runtime of the file running now. */
let current;
/** A file of a shared run loaded sources of its own (it mocks a module): they may have replaced global metadata. */
let sourcesStale = false;
/**
 * The databases the module tests open (test/support/module-database.ts), key -> its opening, kept with the sources
 * they hold entities of, and the closing of those left with sources forgotten.
 */
const DATABASES = Symbol.for('payments.mutation.databases');
let databases = new Map();
let closing = Promise.resolve();

const sharesSources = () => globalThis[RUN]?.shared === true;

/**
 * Before each test file: whether it finds the sources loaded by earlier files (true), or loads them afresh (false),
 * the shared ones then forgotten with the globals they made.
 */
function keepsSources() {
  if (sharesSources() && sources.modules.size > 0 && !sourcesStale) return true;
  sources.modules.clear();
  sources.globals.clear();
  sourcesStale = false;
  const left = [...databases.values()];
  databases = new Map();
  closing = Promise.all([closing, ...left.map((opening) => opening.then((database) => database.close()).catch(() => undefined))]);
  return false;
}

/** For the global of a test file: the databases its module tests share while the run shares the sources, else none. */
function shareDatabases(global) {
  if (sharesSources()) global[DATABASES] = databases;
  else delete global[DATABASES];
  return closing;
}

/** The globals the environment keeps between files: those the shared modules made, which will not make them again. */
function keptGlobals() {
  return new Set([...packages.globals, ...framework.globals, ...sources.globals]);
}

class MutationRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    current = this;
    // Each file's runtime would resolve every module again, Jest's own (jest-circus, expect) among them.
    if (this._resolution?.cjsCache instanceof Map) this._resolution.cjsCache = resolutions;
    this.sourceDir = path.join(this._config.rootDir, 'src') + path.sep;
    this.sharesSources = sharesSources();
  }

  /** A shared module's `require` belongs to the file that first loaded it: later, the file running now serves it. */
  requireModuleOrMock(from, moduleName) {
    if (current && current !== this) return current.requireModuleOrMock(from, moduleName);
    return super.requireModuleOrMock(from, moduleName);
  }

  requireModule(from, moduleName, options, isRequireActual = false) {
    const target = moduleName && isBuiltin(moduleName) ? undefined : this.resolvedPath(from, moduleName);
    const set = options?.isInternalModule ? this.frameworkSetOf(target) : this.sharedSetOf(target);
    if (!set) return super.requireModule(from, moduleName, options, isRequireActual);
    const known = set.modules.get(target);
    if (known) return known.exports;
    const global = this._environment.global;
    const before = set.loading === 0 ? new Set(Reflect.ownKeys(global)) : undefined;
    set.loading++;
    try {
      const exports = super.requireModule(from, moduleName, options, isRequireActual);
      // The module object, not its exports: a module may replace module.exports after a cycle read it early.
      set.modules.set(target, this.registries.getActiveCjsRegistry().get(target) ?? { exports });
      return exports;
    } finally {
      set.loading--;
      if (before) for (const key of Reflect.ownKeys(global)) if (!before.has(key)) set.globals.add(key);
    }
  }

  /** What Jest loads into the context for itself: expect, jest-snapshot, pretty-format and the like, once. */
  frameworkSetOf(target) {
    return target?.includes(NODE_MODULES) && !PER_FILE_FRAMEWORK.test(target) ? framework : undefined;
  }

  sharedSetOf(target) {
    if (target === undefined) return undefined;
    if (target.includes(NODE_MODULES)) return PER_FILE.test(target) ? undefined : packages;
    if (!this.sharesSources || !target.startsWith(this.sourceDir)) return undefined;
    if (this.mocksModules()) {
      sourcesStale = true;
      // Its entities are its own: so is its database.
      delete this._environment.global[DATABASES];
      return undefined;
    }
    return sources;
  }

  /** Whether the file asked for a module mock (jest.mock, hoisted above its imports). */
  mocksModules() {
    const { explicitCjsMock, explicitEsmMock } = this.mockState ?? {};
    return [explicitCjsMock, explicitEsmMock].some((mocks) => mocks && [...mocks.values()].includes(true));
  }

  resolvedPath(from, moduleName) {
    try {
      return this._resolution.resolveCjs(from, moduleName);
    } catch {
      return undefined;
    }
  }
}

module.exports = MutationRuntime;
module.exports.RUN = RUN;
module.exports.keepsSources = keepsSources;
module.exports.keptGlobals = keptGlobals;
module.exports.shareDatabases = shareDatabases;
