#!/usr/bin/env node
// Each table has one owner, and only the owner writes it. src/modules/table-owners.json maps every table to the
// room that owns it (the folder of its entity, or of the store that keeps a table without one); this check reads
// every file of src/ (not the migrations) for the writes it makes and fails on a write from anywhere else.
//
//   node scripts/table-owners.mjs       check src/ (npm test runs this)
//   --root <dir>   the repository to check (the unit test points it at a made-up one)
//
// Who may write a table:
//   - SQL that writes it (`insert into`, `update`, `delete from`, `merge into`, quoted or not): the owner's
//     `*-store.ts` files;
//   - the ORM (`em.create(Entity`, `nativeUpdate(Entity`, `nativeDelete(Entity`, `insert`/`insertMany`/`upsert`
//     of an entity, `persist`/`remove` of one, a query builder of an entity that updates, inserts or deletes, and a
//     change to a loaded entity's field, which the next flush writes): any file of the owner's folder, since its
//     services write through the unit of work;
//   - on any table's behalf: the move engine (src/platform/lifecycle/) and the database platform (src/platform/db/).
// A statement whose table is spliced in (`update "${table}"`) writes each table the file names as a '…' string;
// when it names none, the table is the caller's, counted as "?".
//
// The check fails on any other write, on a table of the migrations or an entity that the map does not name, and on
// an entity whose folder is not its table's owner. A job that spans several modules' tables (re-encrypting sealed
// columns) writes through the database platform, handing it the table names.
// Exit code: 0 clean, 1 a finding.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const MAP = 'src/modules/table-owners.json';
const MIGRATIONS = 'src/platform/db/migrations/';
const ENGINE = ['src/platform/lifecycle/', 'src/platform/db/'];

/** The room of a file: `src/modules/payments/x.ts` → `modules/payments`, `src/platform/processor/adyen/x.ts` → `platform/processor`. */
export function roomOf(file) {
  const match = /^src\/(?:(modules|platform|api)\/([^/]+)\/.|([^/]+)\/.)/.exec(file);
  return match ? (match[3] ?? `${match[1]}/${match[2]}`) : null;
}

/** Whether `file` may make a write of this kind (`sql` or `orm`) to a table owned by `owner`. */
export function mayWrite(file, owner, kind) {
  if (ENGINE.some((piece) => file === piece || (piece.endsWith('/') && file.startsWith(piece)))) return true;
  if (roomOf(file) !== owner) return false;
  return kind === 'orm' || /-store\.ts$/.test(file);
}

const lineOf = (source, index) => source.slice(0, index).split('\n').length;

/** The source with its comments blanked (lines kept), so prose saying "update payments" is no write. */
function withoutComments(source) {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '))
    .replace(/(^|[\s;{}(),])\/\/[^\n]*/g, (comment, before) => before + ' '.repeat(comment.length - before.length));
}

/** Entity classes and their tables: `@Entity({ tableName: 't' }) … export class Name`. */
export function entitiesIn(source) {
  return [...source.matchAll(/@Entity\(\s*\{[^}]*tableName:\s*'(\w+)'[^}]*\}\s*\)\s*(?:@\w+(?:\([^)]*\))?\s*)*export\s+(?:abstract\s+)?class\s+(\w+)/g)].map(
    (match) => ({ table: match[1], name: match[2] }),
  );
}

/** Tables the migrations leave: each `create table` not dropped later. */
export function migrationTables(sources) {
  const tables = new Set();
  for (const source of sources) {
    for (const match of source.matchAll(/\b(create|drop)\s+table\s+(?:if\s+(?:not\s+)?exists\s+)?"?(\w+)"?/gi)) {
      if (match[1].toLowerCase() === 'create') tables.add(match[2]);
      else tables.delete(match[2]);
    }
  }
  return tables;
}

/**
 * Every write of a file: `{ table, kind: 'sql' | 'orm', line }`. `tables` is the set of known table names,
 * `entities` maps an entity class to its table.
 */
export function writesIn(rawSource, tables, entities) {
  const source = withoutComments(rawSource);
  const writes = [];
  const add = (table, kind, index) => writes.push({ table, kind, line: lineOf(source, index) });

  // SQL text. A spliced-in table stands for the table names the file spells as strings.
  const named = [...new Set([...source.matchAll(/'(\w+)'/g)].map((match) => match[1]).filter((name) => tables.has(name)))];
  for (const match of source.matchAll(/\b(?:insert\s+into|update|delete\s+from|merge\s+into)\s+(?:only\s+)?(?:"(\w+)"|(\w+)|"?\$\{[^}]*\}"?)/gi)) {
    const table = match[1] ?? match[2];
    if (table !== undefined) {
      if (tables.has(table)) add(table, 'sql', match.index);
    } else {
      for (const name of named.length ? named : ['?']) add(name, 'sql', match.index);
    }
  }

  // The ORM, naming the entity.
  const entity = (name) => entities.get(name);
  for (const match of source.matchAll(/\.(?:create|nativeUpdate|nativeDelete|insert|insertMany|upsert|upsertMany)\(\s*([A-Z]\w*)\b/g)) {
    if (entity(match[1])) add(entity(match[1]), 'orm', match.index);
  }
  for (const match of source.matchAll(/\.(?:persist|persistAndFlush|remove|removeAndFlush)\(\s*new\s+([A-Z]\w*)\b/g)) {
    if (entity(match[1])) add(entity(match[1]), 'orm', match.index);
  }
  for (const match of source.matchAll(/\b(?:createQueryBuilder|qb)\(\s*([A-Z]\w*)\b[^;]*?\.(?:update|insert|delete|truncate)\(/g)) {
    if (entity(match[1])) add(entity(match[1]), 'orm', match.index);
  }

  // The ORM through a variable holding an entity: loaded, created or declared as one.
  const held = new Map();
  for (const match of source.matchAll(/\b(?:const|let|var)\s+(\w+)\s*(?::[^=;]*)?=\s*(?:await\s+)?[\w.]+\.(?:findOne|findOneOrFail|create|getReference|merge)\(\s*([A-Z]\w*)\b/g)) {
    if (entity(match[2])) held.set(match[1], entity(match[2]));
  }
  for (const match of source.matchAll(/[(,]\s*(\w+)\s*:\s*(?:Loaded<\s*)?([A-Z]\w*)\s*>?\s*[,)=]/g)) {
    if (entity(match[2]) && !held.has(match[1])) held.set(match[1], entity(match[2]));
  }
  for (const [name, table] of held) {
    const patterns = [
      new RegExp(`(?<![\\w.])${name}\\.\\w+\\s*(?:[-+*/]?=)(?![=>])`, 'g'),
      new RegExp(`\\bObject\\.assign\\(\\s*${name}\\b`, 'g'),
      new RegExp(`\\bwrap\\(\\s*${name}\\s*\\)\\.assign\\(`, 'g'),
      new RegExp(`\\.(?:assign|persist|persistAndFlush|remove|removeAndFlush)\\(\\s*${name}\\b`, 'g'),
    ];
    for (const pattern of patterns) for (const match of source.matchAll(pattern)) add(table, 'orm', match.index);
  }
  return writes.sort((a, b) => a.line - b.line);
}

/** The key of a resolver's own commits (`flush()`, `persist…(`) in the findings. */
export const FLUSH = '(flush)';

/** Lines where a file commits a unit of work itself. */
export function commitsIn(rawSource) {
  const source = withoutComments(rawSource);
  return [...source.matchAll(/\.(?:flush|persist|persistAndFlush|removeAndFlush)\(/g)].map((match) => lineOf(source, match.index));
}

function sourcesOf(root, dir = 'src') {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourcesOf(root, file);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** Every finding of the tree against the map. */
export function check(root, owners) {
  const problems = [];
  const files = sourcesOf(root);
  const read = (file) => fs.readFileSync(path.join(root, file), 'utf8');

  const entities = new Map();
  for (const file of files.filter((f) => f.endsWith('.entity.ts'))) {
    for (const { table, name } of entitiesIn(read(file))) {
      entities.set(name, table);
      if (!owners[table]) problems.push(`${file}: entity ${name}'s table "${table}" has no owner in ${MAP}`);
      else if (owners[table] !== roomOf(file)) problems.push(`${file}: entity ${name} lives outside "${table}"'s owner ${owners[table]}: move one of them`);
    }
  }
  for (const table of migrationTables(files.filter((f) => f.startsWith(MIGRATIONS)).sort().map(read))) {
    if (!owners[table]) problems.push(`${MIGRATIONS}: table "${table}" has no owner in ${MAP}`);
  }

  const tables = new Set(Object.keys(owners));
  const found = new Map();
  for (const file of files) {
    if (file.startsWith(MIGRATIONS)) continue;
    const source = read(file);
    const writes = writesIn(source, tables, entities);
    // A resolver hands the write to its module's service, which commits it: it flushes no unit of work itself.
    if (file.endsWith('.resolver.ts')) writes.push(...commitsIn(source).map((line) => ({ table: FLUSH, kind: 'commit', line })));
    for (const write of writes) {
      if (mayWrite(file, owners[write.table], write.kind)) continue;
      const byTable = found.get(file) ?? new Map();
      found.set(file, byTable);
      byTable.set(write.table, [...(byTable.get(write.table) ?? []), write]);
    }
  }

  for (const [file, byTable] of found) {
    for (const [table, writes] of byTable) {
      const lines = writes.map((w) => w.line).join(',');
      const whose = table === '?' ? 'a table its caller names' : table === FLUSH ? 'through the unit of work' : `"${table}" (owner: ${owners[table]})`;
      const instead = table === FLUSH ? "call the module's service" : "call its owner's store or service";
      problems.push(`${file}:${lines}: writes ${whose} ${writes.length} time(s): ${instead}`);
    }
  }
  return problems;
}

function main() {
  const { values } = parseArgs({ options: { root: { type: 'string' } } });
  const root = values.root ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const owners = JSON.parse(fs.readFileSync(path.join(root, MAP), 'utf8')).tables;
  const problems = check(root, owners);
  for (const problem of problems) console.error(`table-owners: ${problem}`);
  if (problems.length) return 1;
  console.log(`table-owners: ${Object.keys(owners).length} tables, each written by its owner, the move engine and the database platform only`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
