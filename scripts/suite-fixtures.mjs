#!/usr/bin/env node
// Suites start services only through the shared fixtures (test/support: useTestService, useServiceWithShop,
// useWebhookService, useBrowserService, useBuiltService, useModuleDatabase, useReceiver, …), which start them once
// for the file or the `describe` and always stop them. A `beforeAll`/`beforeEach` of a test file that starts one
// itself fails this check: the service, the database or a built process, an ORM of its own (MikroORM.init), or a
// server (`createServer`, `.listen(port…)`), called in the hook or through functions of the same file that the hook
// calls. Starting a second instance inside a test (a restart, a rival instance) stays the test's own business; a
// fake peer a whole file needs is a fixture (`suiteFixture` of test/support/suite-fixture.ts).
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

/** What starts a service, a database or a built process, called by name. */
const STARTS = new Set(['startTestService', 'startService', 'openDatabase', 'startBuiltService']);
/** MikroORM's ways to open an ORM, a database pool of its own. */
const ORM_STARTS = new Set(['init', 'initSync']);
const HOOKS = new Set(['beforeAll', 'beforeEach']);

const isFunction = (node) => node && (ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isFunctionDeclaration(node));

/** What `node` starts by itself (not through another function), or undefined. */
function startOf(node) {
  if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'MikroORM') return 'new MikroORM';
  if (!ts.isCallExpression(node)) return undefined;
  const callee = node.expression;
  if (ts.isIdentifier(callee)) {
    if (STARTS.has(callee.text) || callee.text === 'createServer') return callee.text;
    return undefined;
  }
  if (!ts.isPropertyAccessExpression(callee)) return undefined;
  const name = callee.name.text;
  const owner = ts.isIdentifier(callee.expression) ? callee.expression.text : undefined;
  if (owner === 'MikroORM' && ORM_STARTS.has(name)) return `MikroORM.${name}`;
  if (name === 'createServer') return `${callee.expression.getText()}.createServer`;
  // A server's listen takes a port, a path or options first; a callback first is an event's subscription
  // (`MAILS_COMMITTED.listen(() => …)`), which starts nothing.
  if (name === 'listen' && !isFunction(node.arguments[0])) return `${callee.expression.getText().replace(/\s+/g, '')}.listen`;
  return undefined;
}

/** The functions of the file by name (declarations, and constants holding an arrow or function expression). */
function functionsOf(file) {
  const functions = new Map();
  const add = (name, body) => functions.set(name, [...(functions.get(name) ?? []), body]);
  const visit = (node) => {
    if (ts.isFunctionDeclaration(node) && node.name && node.body) add(node.name.text, node.body);
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && isFunction(node.initializer)) add(node.name.text, node.initializer.body);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return functions;
}

/** What `node` starts: by itself, or as a call of a function of the file known to start something (`starting`). */
function startAt(node, starting) {
  const own = startOf(node);
  if (own) return own;
  const name = ts.isCallExpression(node) && ts.isIdentifier(node.expression) ? node.expression.text : undefined;
  return name && starting.has(name) ? `${name} → ${starting.get(name)}` : undefined;
}

/** For each function of the file that starts something, directly or through another of the file's functions: what. */
function startingFunctions(functions) {
  const starting = new Map();
  const firstStartIn = (body) => {
    let found;
    const visit = (node) => {
      found ??= startAt(node, starting);
      if (!found) ts.forEachChild(node, visit);
    };
    visit(body);
    return found;
  };
  // Until nothing new: a function calling one found to start, starts too.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, bodies] of functions) {
      const found = starting.has(name) ? undefined : bodies.map(firstStartIn).find(Boolean);
      if (found) {
        starting.set(name, found);
        changed = true;
      }
    }
  }
  return starting;
}

/** Where the hooks of a test file start a service themselves: each line, and what it starts (through which function). */
export function hookStartsIn(fileName, source) {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const starting = startingFunctions(functionsOf(file));
  const found = [];
  const lineOf = (node) => file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const visit = (node, inHook) => {
    const start = inHook ? startAt(node, starting) : undefined;
    if (start) found.push({ line: lineOf(node), what: start });
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && HOOKS.has(node.expression.text)) {
      for (const argument of node.arguments) {
        // `beforeAll(startThing)`: the hook is one of the file's functions.
        if (ts.isIdentifier(argument) && starting.has(argument.text)) found.push({ line: lineOf(argument), what: `${argument.text} → ${starting.get(argument.text)}` });
        visit(argument, true);
      }
      return;
    }
    ts.forEachChild(node, (child) => visit(child, inHook));
  };
  visit(file, false);
  return found;
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
    const starts = hookStartsIn(file, fs.readFileSync(path.join(root, file), 'utf8'));
    if (starts.length === 0) continue;
    starting.add(file);
    const lines = starts.map(({ line }) => line).join(',');
    const what = starts.map(({ what }) => what).join('; ');
    if (!allowed.includes(file)) problems.push(`${file}:${lines}: a hook starts a service itself (${what}): use a fixture of test/support (useTestService, useModuleDatabase, useReceiver, …)`);
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
