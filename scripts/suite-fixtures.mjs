#!/usr/bin/env node
// Suites start services only through the shared fixtures (test/support: useTestService, useServiceWithShop,
// useWebhookService, useBrowserService, useBuiltService, useModuleDatabase), which start them once for the file
// or the `describe` and always stop them. A `beforeAll`/`beforeEach` of a test file that starts one itself fails
// this check. Starting a second instance inside a test (a restart, a rival instance) stays the test's own business.
//
//   node scripts/suite-fixtures.mjs            check test/ against .suite-fixtures-allowed.json (npm test runs this)
//   --root <dir>   the repository to check (the unit test points it at a made-up one)
//
// The allowed file lists the test files that still start a service in a hook; it only shrinks.
// Exit code: 0 clean, 1 a finding.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const ts = require('typescript');

/** What starts a service, a database or a built process. */
const STARTS = new Set(['startTestService', 'startService', 'openDatabase', 'startBuiltService']);
const HOOKS = new Set(['beforeAll', 'beforeEach']);

/** The lines of a test file where a hook starts a service itself. */
export function hookStartsIn(fileName, source) {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const lines = [];
  const visit = (node, inHook) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const name = node.expression.text;
      if (inHook && STARTS.has(name)) lines.push(file.getLineAndCharacterOfPosition(node.getStart()).line + 1);
      if (HOOKS.has(name)) {
        for (const argument of node.arguments) visit(argument, true);
        return;
      }
    }
    ts.forEachChild(node, (child) => visit(child, inHook));
  };
  visit(file, false);
  return lines;
}

function testFilesOf(root, dir = 'test') {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'support' ? [] : testFilesOf(root, file);
    return entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

export function check(root, allowed) {
  const problems = [];
  const starting = new Set();
  for (const file of testFilesOf(root)) {
    const lines = hookStartsIn(file, fs.readFileSync(path.join(root, file), 'utf8'));
    if (lines.length === 0) continue;
    starting.add(file);
    if (!allowed.includes(file)) problems.push(`${file}:${lines.join(',')}: a hook starts a service itself: use a fixture of test/support (useTestService, useServiceWithShop, …)`);
  }
  for (const file of allowed) if (!starting.has(file)) problems.push(`${file}: starts no service in a hook any more: remove it from .suite-fixtures-allowed.json`);
  return problems;
}

function main() {
  const { values } = parseArgs({ options: { root: { type: 'string' } } });
  const root = values.root ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const allowed = JSON.parse(fs.readFileSync(path.join(root, '.suite-fixtures-allowed.json'), 'utf8')).files ?? [];
  const problems = check(root, allowed);
  for (const problem of problems) console.error(`suite-fixtures: ${problem}`);
  if (problems.length) return 1;
  console.log(`suite-fixtures: suites start services through the fixtures (${allowed.length} listed files left)`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
