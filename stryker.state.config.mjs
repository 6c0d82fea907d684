// @ts-check
import { common, ENVIRONMENT, RUNNER, RUNTIME, SEQUENCER, testFiles } from './stryker.config.mjs';

/**
 * Mutation testing of the money and state moves that only a database can exercise: the one move function
 * applyMove (one conditional UPDATE and the declared effects), the review move shared by refunds and withdrawals,
 * movePayment, the engine's one-statement form with the card claim and the completion that use it, the withdrawal
 * actions, refunds (request, review, execution, notified outcomes, reversals), disputes, the acquirer's
 * notifications, the ledger's journals and the signed statements. The tables themselves are in stryker.config.mjs.
 * Each mutant runs against one PostgreSQL database per Stryker worker (test/support/mutation-global-setup.ts).
 */

const TESTS = {
  cardClaim: 'test/integration/checkout/card-claim.test.ts',
  stateMoves: 'test/integration/payments/state-moves.test.ts',
  completion: 'test/module/completion-follows-the-table.test.ts',
  completionStatement: 'test/module/completion-statement.test.ts',
  moveStatement: 'test/unit/move-statement.test.ts',
  checkoutRules: 'test/unit/checkout-rules.test.ts',
  refunds: 'test/module/refunds.test.ts',
  refundGuards: 'test/module/refund-guards.test.ts',
  refundRecords: 'test/module/refund-records.test.ts',
  refundExecution: 'test/module/refund-execution.test.ts',
  acquirerEvents: 'test/module/acquirer-events.test.ts',
  signedStatement: 'test/module/signed-statement.test.ts',
  disputes: 'test/module/disputes.test.ts',
  withdrawals: 'test/module/withdrawals.test.ts',
  payments: 'test/module/payments.test.ts',
  ledgerCheck: 'test/module/ledger-check.test.ts',
  ledgerJournals: 'test/unit/ledger-journals.test.ts',
};

/**
 * For a mutant no single test covers (met while modules load, or in a suite's shared set-up, as every completed
 * payment's claim and journal are), the test files that judge its file; see test/support/mutation-test-sequencer.cjs.
 */
const STATIC_TESTS = {
  'src/platform/lifecycle/apply-move.ts': [TESTS.stateMoves, TESTS.completion],
  'src/platform/lifecycle/review-move.ts': [TESTS.stateMoves, TESTS.refunds],
  'src/platform/lifecycle/move-statement.ts': [TESTS.moveStatement, TESTS.completion],
  'src/modules/payments/payment-moves.ts': [TESTS.stateMoves],
  'src/modules/checkout/card-claim.ts': [TESTS.cardClaim],
  'src/modules/checkout/completion-statement.ts': [TESTS.completionStatement, TESTS.completion],
  'src/modules/withdrawals/withdrawal.service.ts': [TESTS.withdrawals, TESTS.stateMoves],
  'src/modules/refunds/refund.service.ts': [TESTS.refunds, TESTS.refundGuards, TESTS.refundRecords, TESTS.refundExecution],
  'src/modules/disputes/dispute.service.ts': [TESTS.disputes],
  'src/modules/checkout/acquirer-events.ts': [TESTS.acquirerEvents],
  'src/modules/ledger/signed-statement.ts': [TESTS.signedStatement],
  'src/modules/ledger/ledger.service.ts': [TESTS.ledgerJournals, TESTS.ledgerCheck, TESTS.refundExecution, TESTS.completion],
};

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...common,
  mutate: [
    'src/platform/lifecycle/apply-move.ts',
    'src/platform/lifecycle/review-move.ts',
    'src/platform/lifecycle/move-statement.ts',
    'src/modules/payments/payment-moves.ts',
    'src/modules/checkout/card-claim.ts',
    'src/modules/checkout/completion-statement.ts',
    // The request (its hold), the three actions and moveWithdrawal; the amount rules are in the rules run.
    'src/modules/withdrawals/withdrawal.service.ts:39-136',
    'src/modules/refunds/refund.service.ts',
    'src/modules/disputes/dispute.service.ts',
    // What a verified notification of the acquirer does to payments, refunds and disputes.
    'src/modules/checkout/acquirer-events.ts',
    'src/modules/ledger/ledger.service.ts',
    // A seller's signed monthly statement: its lines, balances, hash chain and signature.
    'src/modules/ledger/signed-statement.ts',
  ],
  jest: {
    ...common.jest,
    config: {
      ...testFiles(Object.values(TESTS)),
      testSequencer: SEQUENCER,
      testEnvironment: ENVIRONMENT,
      runner: RUNNER,
      runtime: RUNTIME,
      globals: { mutationTestsOf: STATIC_TESTS },
      // One database per Stryker process instead of one per mutant (see the file).
      globalSetup: '<rootDir>/test/support/mutation-global-setup.ts',
      // null: undefined would be lost on the way to Stryker's workers, and jest.config.js's teardown would drop the
      // worker's database after every mutant, to be made and migrated again for the next (stryker.config.mjs).
      globalTeardown: null,
    },
  },
  incrementalFile: 'reports/mutation/state/incremental.json',
  htmlReporter: { fileName: 'reports/mutation/state/index.html' },
  jsonReporter: { fileName: 'reports/mutation/state/mutation.json' },
};
