// @ts-check
import { common } from './stryker.config.mjs';

/**
 * Mutation testing of the lifecycle moves that only a database can exercise: the payment transition table
 * and applyTransition (one conditional UPDATE), the withdrawal MOVES table and moveWithdrawal. Run after
 * stryker.config.mjs by `npm run test:mutation` (docs/mutation-testing.md).
 */
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...common,
  mutate: [
    'src/payments/payment-lifecycle.ts',
    // The MOVES table, the three actions and moveWithdrawal (the amount rules are in the rules run).
    'src/withdrawals/withdrawal.service.ts:51-121',
  ],
  jest: {
    ...common.jest,
    config: {
      testMatch: ['<rootDir>/test/unit/checkout-rules.test.ts', '<rootDir>/test/unit/payment-transitions.test.ts', '<rootDir>/test/integration/state-moves.test.ts'],
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
