// `npm run test:money -- --seeds N`: the money model test (test/integration/ledger/money-model.test.ts) over N seeds of its own
// (1000 .. 1000+N-1) instead of the fixed ones `npm test` runs. Needs PostgreSQL and Redis, as `npm test` does.
import { spawnSync } from 'node:child_process';

const at = process.argv.indexOf('--seeds');
const seeds = at >= 0 ? Number(process.argv[at + 1]) : 200;
if (!Number.isSafeInteger(seeds) || seeds < 1) {
  console.error('usage: npm run test:money -- --seeds N   (N a positive whole number; 200 when not given)');
  process.exit(2);
}
const run = spawnSync(process.execPath, ['node_modules/jest/bin/jest.js', '--runInBand', 'test/integration/ledger/money-model.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, MONEY_SEEDS: String(seeds) },
});
process.exit(run.status ?? 1);
