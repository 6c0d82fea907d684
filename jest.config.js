const path = require('node:path');

/** Jest runs TypeScript through SWC (about 4x faster than ts-jest); decorator metadata is needed by type-graphql and MikroORM. */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];

module.exports = {
  // A worker's test files share one VM context, where packages (node_modules) load once for all of them: loading
  // MikroORM, graphql, express and the rest again for each file was about a fifth of the run's CPU. The project's
  // sources still load afresh for each file (test/support/shared-modules-runtime.cjs). An absolute path, not
  // <rootDir>: Stryker's jest runner resolves the environment's name itself.
  testEnvironment: path.join(__dirname, 'test/support/shared-context-environment.cjs'),
  runtime: '<rootDir>/test/support/shared-modules-runtime.cjs',
  transform: { '^.+\\.ts$': swc },
  setupFiles: ['reflect-metadata', '<rootDir>/test/support/lower-password-work.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 30000,
  // Suites mostly wait (on PostgreSQL, Redis, timers, Chromium): with three at once the two cores were 60% busy. Four
  // took the run from 559 s to 414 s on a quiet machine and passed whole beside a process holding one core (525 s);
  // five were barely faster and made races show that a quiet machine hides. Each worker has its own database
  // (test/support/global-setup.ts), so suites of different workers never see each other.
  maxWorkers: 4,
};
