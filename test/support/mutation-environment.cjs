/**
 * The test environment of the mutation runs (stryker.config.mjs): the suites' own (code-cache-environment.cjs), and
 * once a test has failed under a mutant, every test not yet started is skipped, with the set-up hooks no test needs
 * any more. One failure is all Stryker needs to count a mutant killed, and Jest, started by Stryker, cannot bail by
 * itself. The flag lives for one jest run: the test sequencer (mutation-test-sequencer.cjs) clears it at the start.
 */
const CodeCacheEnvironment = require('./code-cache-environment.cjs');

const ACTIVE_MUTANT = '__STRYKER_ACTIVE_MUTANT__';
const FAILED = Symbol.for('payments.mutation.testFailed');

class MutationEnvironment extends CodeCacheEnvironment {
  async handleTestEvent(event, state) {
    if (process.env[ACTIVE_MUTANT] === undefined) return;
    if (event.name === 'test_done' && event.test.errors.length > 0) globalThis[FAILED] = true;
    if (globalThis[FAILED] && (event.name === 'run_start' || event.name === 'test_done')) skipNotStarted(state.rootDescribeBlock);
  }
}

function skipNotStarted(block) {
  for (const child of block.children) {
    if (child.type === 'describeBlock') skipNotStarted(child);
    else if (child.startedAt == null) child.mode = 'skip';
  }
}

module.exports = MutationEnvironment;
