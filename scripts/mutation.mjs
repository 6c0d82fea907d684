#!/usr/bin/env node
/**
 * `npm run test:mutation`: the rules run (stryker.config.mjs), then the state run (stryker.state.config.mjs), each
 * incremental; then the score of every module over both, failing below 90% (docs/decisions/0015-mutation-testing.md).
 *
 *   npm run test:mutation                       every listed file (mutants untouched since the last run are reused)
 *   npm run test:mutation -- --changed [base]   only the listed files changed against base (default main),
 *                                               committed since or not
 *   npm run test:mutation -- --changed --list   which runs would mutate which files, without running them
 *   npm run test:mutation -- --force            anything else is passed to Stryker (--force: forget earlier results)
 *
 * A --changed run starts from the newer of the full run's results and its own, and keeps its own results and
 * reports under reports/mutation/<run>/changed/, so it never cuts the full run's results down to its files.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const STRYKER = path.join(ROOT, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');
const FLOOR = 90;
const RUNS = [
  { name: 'rules', config: 'stryker.config.mjs' },
  { name: 'state', config: 'stryker.state.config.mjs' },
];

export function parseArguments(argv) {
  const rest = [];
  let changed = null;
  let list = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--list') {
      list = true;
      continue;
    }
    if (argv[i] !== '--changed') {
      rest.push(argv[i]);
      continue;
    }
    const next = argv[i + 1];
    changed = next !== undefined && !next.startsWith('-') ? next : 'main';
    if (changed === next) i++;
  }
  return { changed, list, strykerArguments: rest };
}

/** Paths changed against base: committed since the branch left it, staged, unstaged and new. */
export function changedFiles(base, cwd = ROOT) {
  const git = (...args) => execFileSync('git', args, { cwd, encoding: 'utf8' }).split('\n').filter(Boolean);
  // A name git would read as an option, or anything not naming a commit, is refused before it reaches git diff.
  if (base.startsWith('-')) throw new Error(`not a commit: ${base}`);
  try {
    git('rev-parse', '--verify', '--quiet', '--end-of-options', `${base}^{commit}`);
  } catch {
    throw new Error(`not a commit: ${base}`);
  }
  return new Set([
    ...git('diff', '--name-only', `${base}...HEAD`, '--'),
    ...git('diff', '--name-only', 'HEAD', '--'),
    ...git('ls-files', '--others', '--exclude-standard'),
  ]);
}

/** The config's mutate entries whose file changed; an entry may end in a line range (`file.ts:39-136`). */
export function changedEntries(mutate, changed) {
  return mutate.filter((entry) => changed.has(entry.replace(/:\d+(?::\d+)?-\d+(?::\d+)?$/, '')));
}

/** Module of a source file: its folder under src/ (src/modules/refunds/refund.service.ts -> modules/refunds). */
export function moduleOf(file) {
  const parts = file.split('/');
  const start = parts.indexOf('src');
  return parts.slice(start + 1, -1).join('/') || parts.slice(start, -1).join('/');
}

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

/** Killed (or timed out) and valid mutants per module, from Stryker's JSON reports. */
export function scoresByModule(reports) {
  const modules = new Map();
  for (const report of reports) {
    for (const [file, { mutants }] of Object.entries(report.files)) {
      const counts = modules.get(moduleOf(file)) ?? { detected: 0, valid: 0, survivors: [] };
      for (const mutant of mutants) {
        if (DETECTED.has(mutant.status)) counts.detected++;
        else if (!UNDETECTED.has(mutant.status)) continue;
        else counts.survivors.push(`${file}:${mutant.location.start.line} ${mutant.mutatorName} ${mutant.status}`);
        counts.valid++;
      }
      modules.set(moduleOf(file), counts);
    }
  }
  return new Map([...modules].sort(([a], [b]) => a.localeCompare(b)));
}

const score = ({ detected, valid }) => (valid === 0 ? 100 : (100 * detected) / valid);

async function main() {
  const { changed, list, strykerArguments } = parseArguments(process.argv.slice(2));
  const changedSet = changed === null ? null : changedFiles(changed);
  const reports = [];
  const mutatedFiles = [];
  let failed = false;
  let ran = 0;
  for (const run of RUNS) {
    const { default: config } = await import(pathToFileURL(path.join(ROOT, run.config)).href);
    const mutate = changedSet ? changedEntries(config.mutate, changedSet) : config.mutate;
    if (mutate.length === 0) continue;
    ran++;
    mutatedFiles.push(...mutate.map((entry) => entry.replace(/:[\d:-]+$/, '')));
    if (list) {
      console.log(`${run.name} run (${run.config}):\n${mutate.map((entry) => `  ${entry}`).join('\n')}`);
      continue;
    }
    const { configFile, jsonReport } = changedSet ? writeChangedConfig(run, config, mutate) : { configFile: run.config, jsonReport: config.jsonReporter.fileName };
    const started = Date.now();
    const result = spawnSync(process.execPath, [STRYKER, 'run', configFile, ...strykerArguments], { cwd: ROOT, stdio: 'inherit' });
    console.log(`mutation ${run.name} run: ${Math.round((Date.now() - started) / 1000)} s`);
    if (result.status !== 0) failed = true;
    const reportFile = path.join(ROOT, jsonReport);
    if (fs.existsSync(reportFile) && fs.statSync(reportFile).mtimeMs >= started) reports.push(JSON.parse(fs.readFileSync(reportFile, 'utf8')));
  }
  if (ran === 0) {
    console.log(`No mutated rule or state file changed against ${changed}: nothing to mutation-test.`);
    return;
  }
  if (list) return;
  // A --changed run reports the modules it mutated (its reports also carry the other files' earlier results).
  const mutatedModules = new Set(mutatedFiles.map(moduleOf));
  const modules = new Map([...scoresByModule(reports)].filter(([name]) => !changedSet || mutatedModules.has(name)));
  console.log(`\nMutation score per module (floor ${FLOOR}%):`);
  for (const [name, counts] of modules) {
    const low = score(counts) < FLOOR;
    if (low) failed = true;
    console.log(`  ${score(counts).toFixed(1).padStart(5)}%  ${String(counts.detected).padStart(4)}/${String(counts.valid).padEnd(4)} ${name}${low ? '  BELOW THE FLOOR' : ''}`);
  }
  for (const [name, counts] of modules) {
    if (score(counts) < FLOOR) for (const survivor of counts.survivors) console.log(`    ${name}: ${survivor}`);
  }
  process.exitCode = failed ? 1 : 0;
}

/** A config for the changed files only, with results and reports of its own. */
function writeChangedConfig(run, config, mutate) {
  const dir = path.join('reports', 'mutation', run.name, 'changed');
  fs.mkdirSync(path.join(ROOT, dir), { recursive: true });
  const incrementalFile = path.join(dir, 'incremental.json');
  const fullResults = path.join(ROOT, config.incrementalFile);
  const ownResults = path.join(ROOT, incrementalFile);
  if (fs.existsSync(fullResults) && (!fs.existsSync(ownResults) || fs.statSync(fullResults).mtimeMs > fs.statSync(ownResults).mtimeMs)) {
    fs.copyFileSync(fullResults, ownResults);
  }
  const jsonReport = path.join(dir, 'mutation.json');
  const configFile = path.join(dir, 'stryker.config.mjs');
  const base = path.relative(path.join(ROOT, dir), path.join(ROOT, run.config)).split(path.sep).join('/');
  fs.writeFileSync(
    path.join(ROOT, configFile),
    `import config from ${JSON.stringify(base)};\n` +
      `export default { ...config, mutate: ${JSON.stringify(mutate)}, incrementalFile: ${JSON.stringify(incrementalFile)},\n` +
      `  htmlReporter: { fileName: ${JSON.stringify(path.join(dir, 'index.html'))} }, jsonReporter: { fileName: ${JSON.stringify(jsonReport)} } };\n`,
  );
  return { configFile, jsonReport };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error.message);
    process.exitCode = 2;
  });
}
