// Build once, then only when an input changed (plain JS so it needs no build).
//   node scripts/build-stamp.mjs ensure   builds (`npm run -s build`) unless dist/.build-stamp matches the inputs
//   node scripts/build-stamp.mjs write    records the inputs (the last step of `npm run build`)
// scripts/run-built.mjs calls ensureBuilt() in the process it then runs the entry point in (npm start, cli, worker).
// The build's own output goes to standard error, so `npm run -s cli` keeps standard output for the CLI's JSON line.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(root, 'dist/.build-stamp');
/** Everything the build reads: sources, page sources, GraphQL documents, build settings and installed versions. */
const INPUTS = ['src', 'tools', 'checkout-ui', 'dashboard-ui', 'admin-ui', 'schema', 'scripts/bundle-cli.mjs', 'mikro-orm.config.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];

function filesUnder(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return [];
  return fs.statSync(full).isDirectory() ? filesIn(entry) : [entry];
}

function filesIn(directory) {
  return fs.readdirSync(path.join(root, directory), { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((d) => (d.isDirectory() ? filesIn(path.join(directory, d.name)) : [path.join(directory, d.name)]));
}

/** What the inputs hold: the build is current when this is the stamp's. */
function contentHash(files) {
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file}\0`).update(fs.readFileSync(path.join(root, file))).update('\0');
  return hash.digest('hex');
}

/**
 * Names, sizes and modification times of the inputs: when they are the stamp's, no input was written since it, and
 * reading every file again (a fifth of a restart) can be skipped. A clone or a touched file only costs the full read.
 */
function statKey(files) {
  const hash = createHash('sha256');
  for (const file of files) {
    const stat = fs.statSync(path.join(root, file));
    hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\0`);
  }
  return hash.digest('hex');
}

function readStamp() {
  if (!fs.existsSync(STAMP)) return { content: null, stat: null };
  const [content = null, stat = null] = fs.readFileSync(STAMP, 'utf8').split('\n');
  return { content, stat };
}

function writeStamp(files) {
  fs.writeFileSync(STAMP, `${contentHash(files)}\n${statKey(files)}\n`);
}

function isBuilt() {
  const files = INPUTS.flatMap(filesUnder);
  const stamp = readStamp();
  if (stamp.stat !== null && stamp.stat === statKey(files)) return true;
  if (stamp.content !== contentHash(files)) return false;
  writeStamp(files);
  return true;
}

/** Builds unless the build is current; returns the build's exit status (0 when nothing needed building). */
export function ensureBuilt() {
  if (isBuilt()) return 0;
  process.stderr.write('Building (the sources changed since the last build)…\n');
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
  const result = spawnSync(npm[0], [...npm.slice(1), 'run', '-s', 'build'], { cwd: root, stdio: ['ignore', process.stderr, process.stderr] });
  return result.status ?? 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const command = process.argv[2];
  if (command === 'write') writeStamp(INPUTS.flatMap(filesUnder));
  else if (command === 'ensure') process.exitCode = ensureBuilt();
  else {
    process.stderr.write('Usage: node scripts/build-stamp.mjs ensure|write\n');
    process.exitCode = 2;
  }
}
