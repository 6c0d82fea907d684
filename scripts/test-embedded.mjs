// `npm run test:embedded`: the REST contract, four eyes, the dashboard and the back office against the embedded database
// (PGlite, as `npm start` runs without DATABASE_URL), each suite on a fresh one. A request that needs a second connection
// while its transaction holds the first stalls there: these suites catch it. Run by .ci/run after `npm test`, whose build
// it uses. PGlite loads its WebAssembly through a dynamic import, which Jest's sandbox allows only with the VM modules flag.
import { spawnSync } from 'node:child_process';

const SUITES = [
  'test/integration/payments/create-payment.test.ts',
  'test/integration/payments/retrieve-and-list.test.ts',
  'test/integration/payments/idempotency.test.ts',
  'test/integration/admins/admin-four-eyes.test.ts',
  'test/browser/dashboard.test.ts',
  'test/browser/back-office.test.ts',
];
const run = spawnSync(process.execPath, ['node_modules/jest/bin/jest.js', ...SUITES], {
  stdio: 'inherit',
  env: { ...process.env, TEST_DATABASE: 'embedded', NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim() },
});
process.exit(run.status ?? 1);
