// `node scripts/run-built.mjs <built entry> [arguments…]`: builds when an input changed (build-stamp.mjs), then runs
// the entry in this same process, as if node had been started on it: one process and one npm script for
// `npm start`, `npm run cli` and `npm run worker` instead of a pre-script's process before each.
import path from 'node:path';
import { createRequire } from 'node:module';
import { ensureBuilt } from './build-stamp.mjs';

const [entry] = process.argv.splice(2, 1);
if (!entry) {
  process.stderr.write('Usage: node scripts/run-built.mjs <built entry> [arguments…]\n');
  process.exit(2);
}
const status = ensureBuilt();
if (status !== 0) process.exit(status);
// The entry sees itself as argv[1] (the cluster's workers are forked on it) and its own arguments after it.
process.argv[1] = path.resolve(entry);
// Required, not imported: the built entries are CommonJS, and an import would first scan the whole file for its
// exports (a quarter of a second for the CLI's bundle).
createRequire(import.meta.url)(process.argv[1]);
