/**
 * Jest's test sequencer for the mutation runs (stryker.config.mjs, stryker.state.config.mjs): it picks the test
 * files a mutant runs. Jest starts afresh for every mutant and loads each chosen file with everything it imports,
 * while the tests that reach a mutant mostly sit in one file; Stryker narrows the tests only by name
 * (`testNamePattern`), so most files Jest would load run no test at all. Here:
 *  - the initial run (no active mutant) records which file holds which test, in the sandbox;
 *  - a mutant with covering tests runs only the files holding them;
 *  - a mutant without (a static one, met while modules load, or in a hook) runs the files the mutation config lists
 *    for its file under `globals.mutationTestsOf` (a path -> test path suffixes), else every file.
 * The mutated file is known by the mutant's id, found in the instrumented sources of the sandbox, so Jest need not
 * work out the related test files (`findRelatedTests`, which resolved every test file's imports again per mutant).
 * Dropping a file can only leave a mutant alive, never kill one: a wrong list shows as a lower score.
 */
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const ACTIVE_MUTANT = '__STRYKER_ACTIVE_MUTANT__';
const INDEX_FILE = '.mutation-test-files.json';
const TEST_FAILED = Symbol.for('payments.mutation.testFailed');
const RUN = Symbol.for('payments.mutation.run');
const KILLS = Symbol.for('payments.mutation.kills');

/** test full name -> files holding it, read once per Stryker worker from the initial run's record. */
let filesByTestName;
/** mutant id -> the listed source holding it, read once per Stryker worker from the instrumented sources. */
let sourceByMutant;

class MutationTestSequencer extends Sequencer {
  constructor(options) {
    super(options);
    this.globalConfig = options.globalConfig;
    this.projectConfig = options.contexts[0]?.config;
  }

  sort(tests) {
    const sorted = super.sort(tests);
    // Sources loaded once serve the run of a mutant that tests cover (shared-modules-runtime.cjs); Stryker runs every test
    // for a mutant that none covers, one met while modules load or in a hook, which needs them loaded with it active.
    globalThis[RUN] = { shared: process.env[ACTIVE_MUTANT] !== undefined && Boolean(this.globalConfig.testNamePattern) };
    if (process.env[ACTIVE_MUTANT] === undefined) return sorted;
    // A new mutant: no test has failed yet (shared-context-environment.cjs skips the rest after the first failure).
    globalThis[TEST_FAILED] = false;
    const chosen = this.globalConfig.testNamePattern ? this.holdingCoveringTests(sorted) : this.listedForMutatedFile(sorted);
    // The file where a test failed under a mutant most lately first, then those listed for the mutated file: its own
    // tests are the likeliest to kill it, and the run stops there (shared-context-environment.cjs orders the tests so too).
    const listed = new Set(this.listedForMutatedFile(chosen));
    const lastKill = (test) => globalThis[KILLS]?.lastFile.get(test.path) ?? 0;
    return (chosen.length > 0 ? chosen : sorted).sort((a, b) => lastKill(b) - lastKill(a) || Number(listed.has(b)) - Number(listed.has(a)));
  }

  /** The files holding a test the pattern names; a file the initial run did not see is kept. */
  holdingCoveringTests(tests) {
    const index = readIndex(this.globalConfig.rootDir);
    if (!index) return tests;
    const pattern = new RegExp(this.globalConfig.testNamePattern, 'i');
    const wanted = new Set();
    const seen = new Set();
    for (const [name, files] of index) {
      for (const file of files) seen.add(file);
      if (pattern.test(name)) for (const file of files) wanted.add(file);
    }
    return tests.filter((test) => wanted.has(test.path) || !seen.has(test.path));
  }

  /** The files listed for the mutated file: the active mutant's, or the paths Stryker gives to find related tests. */
  listedForMutatedFile(tests) {
    const lists = this.projectConfig?.globals?.mutationTestsOf ?? {};
    const mutant = process.env[ACTIVE_MUTANT];
    const mutated = (this.globalConfig.nonFlagArgs ?? []).map(toSlashes);
    const source = mutant === undefined ? undefined : sourceOfMutant(this.globalConfig.rootDir, Object.keys(lists), mutant);
    const suffixes = Object.entries(lists)
      .filter(([listed]) => listed === source || mutated.some((file) => file.endsWith(`/${listed}`)))
      .flatMap(([, testFiles]) => testFiles);
    if (suffixes.length === 0) return tests;
    return tests.filter((test) => suffixes.some((suffix) => toSlashes(test.path).endsWith(`/${suffix}`)));
  }

  cacheResults(tests, results) {
    // Jest's record of each file's duration orders the files of a plain run; a mutant's are ordered here.
    if (process.env[ACTIVE_MUTANT] !== undefined) return;
    super.cacheResults(tests, results);
    const record = {};
    for (const file of results.testResults) {
      for (const test of file.testResults) (record[test.fullName] ??= []).push(file.testFilePath);
    }
    fs.writeFileSync(path.join(this.globalConfig.rootDir, INDEX_FILE), JSON.stringify(record));
    filesByTestName = undefined;
  }
}

/** Stryker's instrumented code names each mutant's id where it is placed: `stryMutAct_9fa48("12")`, `stryCov_9fa48("12", "13")`. */
const PLACED = /stry(?:MutAct|Cov)_9fa48\(((?:"\d+"(?:, )?)+)\)/g;

function sourceOfMutant(rootDir, sources, mutant) {
  if (sourceByMutant === undefined) {
    sourceByMutant = new Map();
    for (const source of sources) {
      let text;
      try {
        text = fs.readFileSync(path.join(rootDir, source), 'utf8');
      } catch {
        continue;
      }
      for (const [, ids] of text.matchAll(PLACED)) for (const [, id] of ids.matchAll(/"(\d+)"/g)) sourceByMutant.set(id, source);
    }
  }
  return sourceByMutant.get(mutant);
}

function readIndex(rootDir) {
  if (filesByTestName === undefined) {
    try {
      filesByTestName = new Map(Object.entries(JSON.parse(fs.readFileSync(path.join(rootDir, INDEX_FILE), 'utf8'))));
    } catch {
      filesByTestName = null;
    }
  }
  return filesByTestName;
}

const toSlashes = (file) => file.split(path.sep).join('/');

module.exports = MutationTestSequencer;
