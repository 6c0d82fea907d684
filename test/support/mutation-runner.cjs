/**
 * Jest's test runner for the mutation runs (stryker.config.mjs): the usual one, file by file, stopping before the next
 * file once a test has failed under a mutant (shared-context-environment.cjs sets the flag) or a file failed to load.
 * Loading a test file with what it imports takes a while, and one failure is all Stryker needs to count the mutant
 * killed (a file that fails to load, an error). Files not run report nothing, as if they were never chosen.
 */
const TestRunner = require('jest-runner').default;

const ACTIVE_MUTANT = '__STRYKER_ACTIVE_MUTANT__';
const FAILED = Symbol.for('payments.mutation.testFailed');

class MutationTestRunner extends TestRunner {
  constructor(...args) {
    super(...args);
    // A file that fails to load under a mutant (a table its module refuses at start) decides the run as a failing test does.
    this.on('test-file-failure', () => {
      if (process.env[ACTIVE_MUTANT] !== undefined) globalThis[FAILED] = true;
    });
  }

  async runTests(tests, watcher, options) {
    if (process.env[ACTIVE_MUTANT] === undefined || !options.serial) return super.runTests(tests, watcher, options);
    for (const test of tests) {
      if (globalThis[FAILED]) return;
      await super.runTests([test], watcher, options);
    }
  }
}

module.exports = MutationTestRunner;
