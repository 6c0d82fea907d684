// @ts-check
import { common } from './stryker.config.mjs';

/**
 * Mutation testing of the lifecycle moves that only a database can exercise: the lifecycle tables and their
 * format (src/modules/lifecycles.ts), the one move function applyMove (one conditional UPDATE and the declared effects),
 * the review move shared by refunds and withdrawals, movePayment, the engine's one-statement form with the card
 * claim and the completion that use it, and the withdrawal actions. Run after
 * stryker.config.mjs by `npm run test:mutation` (docs/decisions/0015-mutation-testing.md).
 */
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...common,
  mutate: [
    'src/platform/lifecycle/lifecycle.ts',
    'src/platform/lifecycle/apply-move.ts',
    'src/platform/lifecycle/review-move.ts',
    'src/modules/payments/payment.lifecycle.ts',
    'src/modules/withdrawals/withdrawal.lifecycle.ts',
    'src/modules/payments/payment-lifecycle.ts',
    'src/modules/checkout/card-claim.ts',
    'src/platform/lifecycle/move-statement.ts',
    // The three actions and moveWithdrawal (the amount rules are in the rules run; the moves are in the table).
    'src/modules/withdrawals/withdrawal.service.ts:69-136',
  ],
  jest: {
    ...common.jest,
    config: {
      testMatch: ['<rootDir>/test/unit/checkout-rules.test.ts', '<rootDir>/test/unit/lifecycles.test.ts', '<rootDir>/test/integration/state-moves.test.ts', '<rootDir>/test/integration/card-claim.test.ts', '<rootDir>/test/unit/move-statement.test.ts', '<rootDir>/test/module/completion-follows-the-table.test.ts'],
      // One database per Stryker process instead of one per mutant (see the file).
      globalSetup: '<rootDir>/test/support/mutation-global-setup.ts',
      globalTeardown: undefined,
    },
  },
  incremental: true,
  incrementalFile: 'reports/mutation/state/incremental.json',
  htmlReporter: { fileName: 'reports/mutation/state/index.html' },
  jsonReporter: { fileName: 'reports/mutation/state/mutation.json' },
};
