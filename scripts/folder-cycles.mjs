#!/usr/bin/env node
// The folder-level cycle check: no two folders of src/ import each other both ways. `.dependency-cruiser.cjs` forbids
// cycles between files; this forbids them between folders, where two features that lean on each other stop being
// two features. A type-only import is an arrow too (naming a type is depending on it), and the root
// mikro-orm.config.ts is a room of its own, so an upward path through it is seen.
//
//   node scripts/folder-cycles.mjs              check src/: any pair fails (npm test runs this)
//   node scripts/folder-cycles.mjs --report     also list every pair with its file imports (type-only ones marked)
//   --cruise-result <file>  read dependency-cruiser's JSON from a file instead of running it (the unit test does)
//
// There is no list of allowed pairs: a module names another module's rows by id, not by an ORM relation
// (docs/architecture.md, "Rooms"), so no two entities need each other's types.
// Exit code: 0 clean, 1 a pair of folders importing each other both ways, 2 dependency-cruiser could not run or a
// file could not be read.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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
  const { values } = parseArgs({ options: { 'cruise-result': { type: 'string' }, report: { type: 'boolean' } } });
  let result;
  try {
    result = values['cruise-result'] ? JSON.parse(fs.readFileSync(values['cruise-result'], 'utf8')) : cruise();
  } catch (error) {
    console.error(`folder-cycles: ${error.message}`);
    return 2;
  }
  const pairs = findBothWayFolderPairs(result.modules);

  if (values.report) {
    const typeOnly = pairs.filter((pair) => !pair.runtime);
    console.log(`Folder pairs importing each other both ways, type-only imports counted (${pairs.length}; ${typeOnly.length} with one side type-only):`);
    for (const pair of pairs) console.log(describePair(pair));
    console.log('');
  }
  if (pairs.length) {
    console.error(`folder-cycles: ${pairs.length} pair(s) of folders import each other both ways (docs/architecture.md, "Rooms").`);
    console.error(
      'Move the piece both need into the folder that owns it (src/shared/ when pure), read states from the lifecycle tables, ' +
        "name another module's rows by id, or hand one side what it needs (a narrow interface it declares, a function): an `import type` counts too:",
    );
    for (const pair of pairs) console.error(describePair(pair));
    return 1;
  }
  if (!values.report) console.log('folder-cycles: no two folders import each other both ways (type-only imports counted)');
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
