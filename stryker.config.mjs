// @ts-check
import path from 'node:path';
/**
 * Mutation testing of the pure money and rule modules and the lifecycle tables against the unit tests
 * (docs/decisions/0015-mutation-testing.md). Pure rules must be pinned by fast tests next to them, so this run loads
 * no database: the test suite's global setup (a fresh PostgreSQL database per jest run, i.e. per mutant here) is
 * switched off. The moves that only a database can exercise are mutated by stryker.state.config.mjs.
 * `npm run test:mutation` runs both (scripts/mutation.mjs; `-- --changed` only the files changed against main).
 */

/** Jest starts afresh for every mutant, so each test file a mutant loads adds to its time: the sequencer picks them. */
export const SEQUENCER = '<rootDir>/test/support/mutation-test-sequencer.cjs';
/**
 * These two stop a mutant's run at its first failing test; the environment also gives the test files of a worker one
 * VM context, where the runtime's packages are loaded once. Stryker resolves the environment from its worker's
 * directory, the sandbox: relative, so it is the sandbox's copy, sharing the runtime's state (the sources kept, the
 * databases open); by this file's absolute path, it was a second copy that saw none of it.
 */
export const ENVIRONMENT = './test/support/shared-context-environment.cjs';
export const RUNNER = '<rootDir>/test/support/mutation-runner.cjs';
/** Packages (node_modules) load once per worker, shared by every later test file and mutant; the project afresh. */
export const RUNTIME = '<rootDir>/test/support/shared-modules-runtime.cjs';

/** Settings both runs share. */
export const common = {
  testRunner: 'jest',
  jest: {
    projectType: 'custom',
    configFile: 'jest.config.js',
    // The sequencer picks each mutant's test files (the ones holding a covering test, or those listed for its file):
    // Jest's search for the files importing the mutated file cost every mutant tens of milliseconds for nothing.
    enableFindRelatedTests: false,
  },
  coverageAnalysis: 'perTest',
  plugins: ['@stryker-mutator/*', './test/support/mutation-ignorers.mjs'],
  ignorers: ['payments'],
  // No type checker: it costs one of the two workers for minutes, and refuses to start while any file in the tree
  // has a type error. A mutant that would not compile runs as JavaScript (SWC strips types) and is almost always killed.
  checkers: [],
  // Two jest runners for two cores (each mutant is mostly a jest start).
  concurrency: 2,
  // On top of the initial run's time per test, which already holds a loaded jest start. A mutant that hangs
  // (a loop, a lock never released) costs this and a new worker, so no more than a loaded start needs.
  timeoutMS: 20000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  thresholds: { high: 95, low: 90, break: 90 },
  ignorePatterns: ['dist', 'reports', 'coverage', '.data', '*.log', 'docs/**/*.png'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  // A later run retests only the mutants whose code or covering tests changed (reports/ is ignored by git).
  incremental: true,
};

/**
 * Jest's `testMatch` and `roots` for a list of test files. Jest walks every file under its roots at each start, i.e.
 * for every mutant: the folders of the tests only, not the whole project, cut a third of a rule mutant's time.
 */
export function testFiles(files) {
  return {
    testMatch: files.map((file) => `<rootDir>/${file}`),
    roots: [...new Set(files.map((file) => `<rootDir>/${path.posix.dirname(file)}`))],
  };
}

/** Test files named by their basename under test/unit/. */
const unit = (...names) => names.map((name) => `test/unit/${name}.test.ts`);

/**
 * The unit tests that pin these rules. Files whose imports build the whole GraphQL schema (admin-rules,
 * schema-file, config, admin-console-operations) are left out: they would cost seconds per mutant and test
 * none of these rules that the files below do not.
 */
const RULE_TESTS = unit(
  'adyen-notifications', 'adyen-refusals', 'adyen-hmac-vectors', 'card-boundaries', 'checkout-rules',
  'payment-limits', 'payment-rules', 'refund-rules', 'dispute-rules', 'dispute-facts', 'retry-schedule',
  'rule-boundaries', 'webhook-edges', 'webhook-signing', 'webhook-url', 'webhook-url-dns', 'lifecycles', 'lifecycle-docs', 'lifecycle-tables',
  'settlement-rules',
);

/** Every lifecycle table: declared data, read while modules load, so Stryker cannot tell which test reads a line. */
export const LIFECYCLE_TABLES = [
  'src/modules/payments/payment.lifecycle.ts',
  'src/modules/refunds/refund.lifecycle.ts',
  'src/modules/disputes/dispute.lifecycle.ts',
  'src/modules/withdrawals/withdrawal.lifecycle.ts',
  'src/modules/webhooks/webhook-delivery.lifecycle.ts',
  'src/modules/notifications/mail.lifecycle.ts',
  'src/modules/checkout/settlement-proposal.lifecycle.ts',
];

/**
 * For a mutant no single test covers (static: met while modules load), the test files that judge its file;
 * without a list every related file runs (see test/support/mutation-test-sequencer.cjs). A table is judged by
 * the generated docs/lifecycles.md, which shows its states, moves, effects and texts, and by lifecycle-tables.test.ts.
 */
const STATIC_TESTS = {
  ...Object.fromEntries(LIFECYCLE_TABLES.map((table) => [table, unit('lifecycle-docs', 'lifecycle-tables')])),
  'src/modules/lifecycles.ts': unit('lifecycle-docs', 'lifecycle-tables'),
  'src/platform/lifecycle/lifecycle.ts': unit('lifecycle-docs', 'lifecycles', 'checkout-rules'),
  // Elsewhere, the tests that import the file.
  'src/modules/ledger/fee.ts': unit('checkout-rules'),
  'src/modules/checkout/card-predicates.ts': unit('card-boundaries', 'checkout-rules'),
  'src/modules/checkout/card-intake.ts': unit('card-boundaries', 'checkout-rules'),
  'src/modules/payments/payment-rules.ts': unit('payment-limits', 'payment-rules'),
  'src/shared/pagination.ts': unit('payment-limits', 'payment-rules'),
  'src/modules/withdrawals/withdrawal.service.ts': unit('rule-boundaries'),
  'src/shared/reason.ts': unit('rule-boundaries'),
  'src/modules/webhooks/webhook-url.ts': unit('webhook-url', 'webhook-url-dns', 'webhook-edges'),
  'src/modules/webhooks/signing.ts': unit('webhook-signing', 'webhook-edges'),
  'src/modules/webhooks/retry-schedule.ts': unit('retry-schedule', 'webhook-edges'),
  'src/modules/refunds/refund-rules.ts': unit('refund-rules'),
  'src/modules/disputes/dispute-rules.ts': unit('dispute-rules'),
  'src/modules/disputes/dispute-facts.ts': unit('dispute-facts'),
  'src/modules/checkout/settlement-rules.ts': unit('settlement-rules'),
  'src/platform/processor/adyen/notifications.ts': unit('adyen-notifications', 'adyen-hmac-vectors'),
  'src/platform/processor/adyen/refusal-reasons.ts': unit('adyen-refusals', 'adyen-notifications'),
};

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...common,
  mutate: [
    'src/modules/ledger/fee.ts',
    'src/modules/checkout/card-predicates.ts',
    'src/modules/checkout/card-intake.ts',
    'src/modules/payments/payment-rules.ts',
    // validPageRequest, pageOf and windowOf (the GraphQL shapes of a list are src/platform/graphql/pages.ts).
    'src/shared/pagination.ts',
    // validWithdrawalAmount and checkAgainstBalance; the withdrawal actions are in the state run.
    'src/modules/withdrawals/withdrawal.service.ts:21-32',
    'src/modules/webhooks/webhook-url.ts',
    'src/modules/webhooks/signing.ts',
    'src/modules/webhooks/retry-schedule.ts',
    'src/shared/reason.ts',
    // Reading Adyen's notification items (fields, HMAC, event codes) and telling a refusal from an unknown outcome.
    'src/platform/processor/adyen/notifications.ts',
    'src/platform/processor/adyen/refusal-reasons.ts',
    // What remains refundable of a payment, and the amount a refund request may take.
    'src/modules/refunds/refund-rules.ts',
    // Whether a dispute notice fits its payment, and the seller's share of a chargeback.
    'src/modules/disputes/dispute-rules.ts',
    // A dispute's state from its events in the acquirer's order, and the moves between two states.
    'src/modules/disputes/dispute-facts.ts',
    // Which answer of the acquirer a finance admin may record by hand for a payment or refund left without one.
    'src/modules/checkout/settlement-rules.ts',
    // The lifecycle tables, their list and their format (defineLifecycle, moveOf, the check constraints).
    ...LIFECYCLE_TABLES,
    'src/modules/lifecycles.ts',
    'src/platform/lifecycle/lifecycle.ts',
  ],
  jest: {
    ...common.jest,
    config: {
      ...testFiles(RULE_TESTS),
      testSequencer: SEQUENCER,
      testEnvironment: ENVIRONMENT,
      runner: RUNNER,
      runtime: RUNTIME,
      globals: { mutationTestsOf: STATIC_TESTS },
      // null, not undefined: Stryker hands its options to its workers as JSON, where an undefined key is lost and
      // jest.config.js's hook comes back (a database made and dropped for every mutant).
      globalSetup: null,
      globalTeardown: null,
    },
  },
  incrementalFile: 'reports/mutation/rules/incremental.json',
  htmlReporter: { fileName: 'reports/mutation/rules/index.html' },
  jsonReporter: { fileName: 'reports/mutation/rules/mutation.json' },
};
