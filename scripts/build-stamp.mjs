// Build once, then only when an input changed (run by prestart, precli, preworker; plain JS so it needs no build).
//   node scripts/build-stamp.mjs ensure   builds (`npm run -s build`) unless dist/.build-stamp holds the inputs' hash
//   node scripts/build-stamp.mjs write    records the inputs' hash (the last step of `npm run build`)
// The build's own output goes to standard error, so `npm run -s cli` keeps standard output for the CLI's JSON line.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(root, 'dist/.build-stamp');
/** Everything the build reads: sources, page sources, GraphQL documents, build settings and installed versions. */
const INPUTS = ['src', 'tools', 'checkout-ui', 'dashboard-ui', 'admin-ui', 'schema', 'mikro-orm.config.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];

function filesUnder(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [entry];
  return fs.readdirSync(full, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name)).flatMap((d) => filesUnder(path.join(entry, d.name)));
}

function inputsHash() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(filesUnder)) hash.update(`${file}\0`).update(fs.readFileSync(path.join(root, file))).update('\0');
  return hash.digest('hex');
}

const built = () => fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8').trim() === inputsHash();

const command = process.argv[2];
if (command === 'write') {
  fs.writeFileSync(STAMP, `${inputsHash()}\n`);
} else if (command === 'ensure') {
  if (!built()) {
    process.stderr.write('Building (the sources changed since the last build)…\n');
    const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
    const result = spawnSync(npm[0], [...npm.slice(1), 'run', '-s', 'build'], { cwd: root, stdio: ['ignore', process.stderr, process.stderr] });
    process.exit(result.status ?? 1);
  }
} else {
  process.stderr.write('Usage: node scripts/build-stamp.mjs ensure|write\n');
  process.exit(2);
}
