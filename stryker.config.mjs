// @ts-check
/**
 * Mutation testing of the pure money and rule modules against the unit tests (docs/decisions/0015-mutation-testing.md).
 * Pure rules must be pinned by fast tests next to them, so this run loads no database: the test suite's
 * global setup (a fresh PostgreSQL database per jest run, i.e. per mutant here) is switched off.
 * The state machines that only a database can exercise are mutated by stryker.state.config.mjs.
 */

/** Settings both runs share. */
export const common = {
  testRunner: 'jest',
  jest: {
    projectType: 'custom',
    configFile: 'jest.config.js',
    // Run only the test files that import the mutated file, and of those only the tests that reach the mutant.
    enableFindRelatedTests: true,
  },
  coverageAnalysis: 'perTest',
  checkers: ['typescript'],
  // Only the mutated files and what they import: type-checking the whole project per mutant batch is minutes here.
  tsconfigFile: 'tsconfig.mutation.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  // Stryker gives half of this to type checkers and half to jest runners: two runners for two cores (each
  // mutant is mostly a jest start); the checkers idle once they have checked the mutants ahead of the runners.
  concurrency: 4,
  // Generous: on a loaded machine a jest start alone can take many seconds. Endless loops are caught by the hit limit.
  timeoutMS: 60000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  thresholds: { high: 95, low: 90, break: 90 },
  ignorePatterns: ['dist', 'reports', 'coverage', '.data', '*.log'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};

/**
 * The unit tests that pin these rules. Jest loads every related test file for every mutant, so files whose
 * imports build the whole GraphQL schema (admin-rules, schema-file, config, admin-console-operations) are left
 * out: they would cost seconds per mutant and test none of these rules that the files below do not.
 */
const RULE_TESTS = [
  'adyen-notifications',
  'adyen-refusals',
  'adyen-hmac-vectors',
  'card-boundaries',
  'checkout-rules',
  'checkout-ui-card-checks',
  'payment-limits',
  'payment-rules',
  'refund-rules',
  'dispute-rules',
  'retry-schedule',
  'rule-boundaries',
  'webhook-edges',
  'webhook-signing',
  'webhook-url',
  'webhook-url-dns',
].map((name) => `<rootDir>/test/unit/${name}.test.ts`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...common,
  mutate: [
    'src/modules/ledger/fee.ts',
    'src/modules/checkout/card-predicates.ts',
    'src/modules/checkout/card-intake.ts',
    'src/modules/payments/payment-rules.ts',
    // validPageRequest, pageOf and windowOf, not the GraphQL types below them.
    'src/shared/pagination.ts:17-34',
    // validWithdrawalAmount and checkAgainstBalance; the withdrawal moves (src/modules/lifecycles.ts) are in the state run.
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
  ],
  jest: {
    ...common.jest,
    config: { testMatch: RULE_TESTS, globalSetup: undefined, globalTeardown: undefined },
  },
  // A later run retests only the mutants whose code or covering tests changed.
  incremental: true,
  incrementalFile: 'reports/mutation/rules/incremental.json',
  htmlReporter: { fileName: 'reports/mutation/rules/index.html' },
  jsonReporter: { fileName: 'reports/mutation/rules/mutation.json' },
};
