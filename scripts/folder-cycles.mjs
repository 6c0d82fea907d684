#!/usr/bin/env node
// The folder-level cycle check: no two folders of src/ import each other both ways. `.dependency-cruiser.cjs` forbids
// cycles between files; this forbids them between folders, where two features that lean on each other stop being
// two features. A type-only import is an arrow too (naming a type is depending on it), and the root
// mikro-orm.config.ts is a room of its own, so an upward path through it is seen.
//
//   node scripts/folder-cycles.mjs              check src/ against .folder-cycles-allowed.json (npm test runs this)
//   node scripts/folder-cycles.mjs --report     also list every pair with its file imports (type-only ones marked)
//   --cruise-result <file>  read dependency-cruiser's JSON from a file instead of running it (the unit test does)
//   --allowed <file>        the ratchet file to check against
//
// The ratchet file lists the pairs of two modules that existed when the rule came, each with why (the two sides of
// an ORM relation naming each other's type). The check fails on a pair not in it, on a listed pair that no longer
// exists, so the list only ever shrinks, and on a listed pair that is not two modules: api, platform, shared and
// the apps are never in a pair.
// Exit code: 0 clean, 1 a new or vanished pair, 2 dependency-cruiser could not run or a file could not be read.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_ALLOWED = path.join(ROOT, '.folder-cycles-allowed.json');

/**
 * The room a file lives in: `src/modules/payments/payment.entity.ts` → `modules/payments`, `src/platform/db/x.ts` →
 * `platform/db`, `src/shared/cents.ts` → `shared`, `src/apps/main.ts` → `apps`. The lifecycle tables (each module's
 * `*.lifecycle.ts`, an acquirer adapter's inbox table, the list of them in src/modules/lifecycles.ts, and the
 * engine's table type) are one room of
 * their own, `lifecycle tables`: pure data every layer reads, as the layer rules have it (.dependency-cruiser.cjs).
 */
export function folderOf(source) {
  if (source === ROOT_CONFIG) return 'root config';
  if (LIFECYCLE_TABLE.test(source)) return 'lifecycle tables';
  const match = /^src\/(?:(modules|platform|api)\/([^/]+)\/.|([^/]+)\/.)/.exec(source);
  if (!match) return null;
  return match[3] ?? `${match[1]}/${match[2]}`;
}

const ROOT_CONFIG = 'mikro-orm.config.ts';
const LIFECYCLE_TABLE = /^src\/(platform\/lifecycle\/lifecycle\.ts|modules\/lifecycles\.ts|(modules|platform\/processor)\/[a-z-]+\/[a-z-]+\.lifecycle\.ts)$/;

/** `import type` and `import('…').Name` in a type position: the compiled code loads nothing. */
function isTypeOnly(dependencyTypes) {
  return dependencyTypes.includes('type-only') || dependencyTypes.includes('type-import');
}

export const pairKey = (a, b) => [a, b].sort().join(' <-> ');

/**
 * Every pair of folders with file imports both ways, from dependency-cruiser's `modules`. A pair is `runtime` when
 * both directions hold at least one import that is not type-only; otherwise one side is names of types only.
 * Each direction lists its file-level imports, `typeOnly` when no import of that file pair loads code.
 */
export function findBothWayFolderPairs(modules) {
  const arrows = new Map(); // "from\0to" folders → Map("fromFile\0toFile" → typeOnly)
  for (const module of modules) {
    const fromFolder = folderOf(module.source);
    if (!fromFolder) continue;
    for (const dependency of module.dependencies ?? []) {
      const toFolder = dependency.resolved ? folderOf(dependency.resolved) : null;
      if (!toFolder || toFolder === fromFolder || dependency.couldNotResolve) continue;
      const key = `${fromFolder}\0${toFolder}`;
      if (!arrows.has(key)) arrows.set(key, new Map());
      const files = arrows.get(key);
      const fileKey = `${module.source}\0${dependency.resolved}`;
      // A file imported once for a type and once for a value is a runtime import.
      files.set(fileKey, (files.get(fileKey) ?? true) && isTypeOnly(dependency.dependencyTypes));
    }
  }
  const importsOf = (from, to) =>
    [...(arrows.get(`${from}\0${to}`) ?? new Map())]
      .map(([fileKey, typeOnly]) => {
        const [fromFile, toFile] = fileKey.split('\0');
        return { from: fromFile, to: toFile, typeOnly };
      })
      .sort((x, y) => (x.from + x.to).localeCompare(y.from + y.to));
  const pairs = [];
  for (const key of arrows.keys()) {
    const [a, b] = key.split('\0');
    if (a > b || !arrows.has(`${b}\0${a}`)) continue;
    const forward = importsOf(a, b);
    const backward = importsOf(b, a);
    const runtime = forward.some((i) => !i.typeOnly) && backward.some((i) => !i.typeOnly);
    pairs.push({ folders: [a, b], key: pairKey(a, b), runtime, imports: { [`${a} -> ${b}`]: forward, [`${b} -> ${a}`]: backward } });
  }
  return pairs.sort((x, y) => x.key.localeCompare(y.key));
}

const isModule = (folder) => folder.startsWith('modules/');

/**
 * Every pair, type-only or not, against the ratchet list: `added` are not listed (fail), `vanished` are listed but
 * gone (fail), `outOfModules` are listed but not two modules (fail: only modules may still lean on each other).
 */
export function compareWithAllowed(pairs, allowedPairs) {
  const allowed = new Set(allowedPairs.map((entry) => pairKey(...entry.folders)));
  const present = new Set(pairs.map((pair) => pair.key));
  return {
    added: pairs.filter((pair) => !allowed.has(pair.key)),
    vanished: [...allowed].filter((key) => !present.has(key)).sort(),
    allowed: pairs.filter((pair) => allowed.has(pair.key)),
    outOfModules: allowedPairs.filter((entry) => !entry.folders.every(isModule)).map((entry) => pairKey(...entry.folders)),
  };
}

function describePair(pair) {
  const lines = [`  ${pair.key}`];
  for (const [direction, imports] of Object.entries(pair.imports)) {
    lines.push(`    ${direction}`);
    for (const i of imports) lines.push(`      ${i.from} -> ${i.to}${i.typeOnly ? '  (type-only)' : ''}`);
  }
  return lines.join('\n');
}

function cruise() {
  const cli = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
  // The layer rules' own configuration, so both checks see the same files (same exclusions, same tsconfig).
  const args = [cli, 'src', ROOT_CONFIG, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'];
  try {
    return JSON.parse(execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] }));
  } catch (error) {
    // A layer violation can make dependency-cruiser exit non-zero after printing its JSON: lint:layers reports it.
    if (typeof error.stdout === 'string' && error.stdout.trim().startsWith('{')) return JSON.parse(error.stdout);
    throw error;
  }
}

function main() {
  const { values } = parseArgs({
    options: { 'cruise-result': { type: 'string' }, allowed: { type: 'string' }, report: { type: 'boolean' } },
  });
  let result, allowedFile;
  const allowedPath = values.allowed ?? DEFAULT_ALLOWED;
  try {
    result = values['cruise-result'] ? JSON.parse(fs.readFileSync(values['cruise-result'], 'utf8')) : cruise();
    allowedFile = JSON.parse(fs.readFileSync(allowedPath, 'utf8'));
  } catch (error) {
    console.error(`folder-cycles: ${error.message}`);
    return 2;
  }
  const pairs = findBothWayFolderPairs(result.modules);
  const { added, vanished, allowed, outOfModules } = compareWithAllowed(pairs, allowedFile.pairs ?? []);
  const typeOnly = pairs.filter((pair) => !pair.runtime);

  if (values.report) {
    console.log(`Folder pairs importing each other both ways, type-only imports counted (${pairs.length}; ${typeOnly.length} with one side type-only):`);
    for (const pair of pairs) console.log(describePair(pair));
    console.log('');
  }
  if (outOfModules.length) {
    console.error(`folder-cycles: ${outOfModules.length} listed pair(s) are not two modules; api, platform, shared and the apps are never in a pair:`);
    for (const key of outOfModules) console.error(`  ${key}`);
  }
  if (added.length) {
    console.error(`folder-cycles: ${added.length} new pair(s) of folders import each other both ways (docs/architecture.md, "Modules").`);
    console.error(
      'Move the piece both need into the folder that owns it (src/shared/ when pure), read states from the lifecycle tables, ' +
        'or hand one side what it needs (a narrow interface it declares, a function): an `import type` counts too:',
    );
    for (const pair of added) console.error(describePair(pair));
  }
  if (vanished.length) {
    console.error(`folder-cycles: ${vanished.length} listed pair(s) no longer import each other both ways; remove them from ${path.relative(ROOT, allowedPath)}:`);
    for (const key of vanished) console.error(`  ${key}`);
  }
  if (added.length || vanished.length || outOfModules.length) return 1;
  if (!values.report) console.log(`folder-cycles: no new both-way folder pair (${allowed.length} listed, type-only imports counted)`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
