#!/usr/bin/env node
// Where SQL is run: a module's store (`*-store.ts`), the database platform (src/platform/db/) and the move
// engine's one-statement form run SQL; everything else calls them. And one placeholder style: positional `?`
// (pooledQuery numbers them for pg), never `$1`.
//
//   node scripts/raw-sql.mjs            check src/ against .raw-sql-allowed.json (npm test runs this)
//   --root <dir>   the repository to check (the unit test points it at a made-up one)
//
// `.raw-sql-allowed.json` counts the SQL runs each file outside a store had when the rule came. The check fails
// on a file not listed, on a count that grew, and on one that shrank without the list shrinking with it.
// Exit code: 0 clean, 1 a finding.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** Files that may run SQL: stores, the database platform and its migrations, the engine's statement form. */
export function mayRunSql(file) {
  return /-store\.ts$/.test(file) || file.startsWith('src/platform/db/') || file === 'src/platform/lifecycle/move-statement.ts';
}

/**
 * The SQL a file runs: `em.execute(<sql>, …)` (not the query builder's `qb.execute()`/`qb.execute('get')`),
 * `pooledQuery(…)`, and the driver behind the ORM (`getKnex()`).
 */
export function sqlRunsIn(source) {
  const runs = [];
  for (const match of source.matchAll(/\.execute\s*(?:<(?:[^<>]|<[^<>]*>)*>)?\(\s*/g)) {
    const argument = source.slice(match.index + match[0].length);
    if (/^(\)|'(get|all|run)'\s*\))/.test(argument)) continue; // the query builder's own execute
    runs.push(lineOf(source, match.index));
  }
  for (const match of source.matchAll(/\bpooledQuery\(|\bgetKnex\(\)/g)) {
    if (!/export (async )?function pooledQuery/.test(source.slice(Math.max(0, match.index - 30), match.index + 12))) runs.push(lineOf(source, match.index));
  }
  return runs.sort((a, b) => a - b);
}

/** `$1`-style placeholders in SQL (`= $1`, `($1`, `, $2`, `$3::json`). */
export function numberedPlaceholdersIn(source) {
  return [...source.matchAll(/(?:=\s*|\(\s*|,\s*)\$\d+\b|\$\d+::/g)].map((match) => lineOf(source, match.index));
}

const lineOf = (source, index) => source.slice(0, index).split('\n').length;

function sourcesOf(root, dir = 'src') {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourcesOf(root, file);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** Every finding of the tree against the allowed counts. */
export function check(root, allowed) {
  const problems = [];
  const seen = new Set();
  for (const file of sourcesOf(root)) {
    const source = fs.readFileSync(path.join(root, file), 'utf8');
    // The database platform speaks to the driver itself (pg's own `$n`); everything above it writes `?`.
    if (!file.startsWith('src/platform/db/')) {
      for (const line of numberedPlaceholdersIn(source)) problems.push(`${file}:${line}: a $n placeholder: write ? (pooledQuery numbers them)`);
    }
    if (mayRunSql(file)) continue;
    const runs = sqlRunsIn(source);
    if (runs.length === 0) continue;
    seen.add(file);
    const limit = allowed[file] ?? 0;
    if (runs.length > limit) {
      problems.push(`${file}:${runs.join(',')}: runs SQL ${runs.length} time(s)${limit ? `, ${limit} allowed` : ''}: move it to the module's store (*-store.ts)`);
    } else if (runs.length < limit) {
      problems.push(`${file}: runs SQL ${runs.length} time(s), ${limit} listed: lower its count in .raw-sql-allowed.json`);
    }
  }
  for (const file of Object.keys(allowed)) {
    if (!seen.has(file)) problems.push(`${file}: runs no SQL outside a store any more: remove it from .raw-sql-allowed.json`);
  }
  return problems;
}

function main() {
  const { values } = parseArgs({ options: { root: { type: 'string' } } });
  const root = values.root ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const allowed = JSON.parse(fs.readFileSync(path.join(root, '.raw-sql-allowed.json'), 'utf8')).files ?? {};
  const problems = check(root, allowed);
  for (const problem of problems) console.error(`raw-sql: ${problem}`);
  if (problems.length) return 1;
  console.log(`raw-sql: SQL runs only in stores, the database platform and the listed files (${Object.keys(allowed).length} left to move)`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
