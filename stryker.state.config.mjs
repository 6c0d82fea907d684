// @ts-check
import { common } from './stryker.config.mjs';

/**
 * Mutation testing of the lifecycle moves that only a database can exercise: the lifecycle tables and their
 * format (src/lifecycles/), the one move function applyMove (one conditional UPDATE and the declared effects),
 * the review move shared by refunds and withdrawals, movePayment, the card claim (the submitCard move as one
 * plain UPDATE), and the withdrawal actions. Run after
 * stryker.config.mjs by `npm run test:mutation` (docs/decisions/0015-mutation-testing.md).
 */
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...common,
  mutate: [
    'src/lifecycles/lifecycle.ts',
    'src/lifecycles/apply-move.ts',
    'src/lifecycles/review-move.ts',
    'src/lifecycles/payment.lifecycle.ts',
    'src/lifecycles/withdrawal.lifecycle.ts',
    'src/payments/payment-lifecycle.ts',
    'src/checkout/card-claim.ts',
    // The three actions and moveWithdrawal (the amount rules are in the rules run; the moves are in the table).
    'src/withdrawals/withdrawal.service.ts:57-104',
  ],
  jest: {
    ...common.jest,
    config: {
      testMatch: ['<rootDir>/test/unit/checkout-rules.test.ts', '<rootDir>/test/unit/lifecycles.test.ts', '<rootDir>/test/integration/state-moves.test.ts', '<rootDir>/test/integration/card-claim.test.ts'],
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
