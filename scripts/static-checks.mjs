#!/usr/bin/env node
// The checks `npm test` runs before jest, as many at once as there are cores: the page bundles' type checks and the
// structure lints. (`pretest` compiles src, tools and tests in one tsc pass, which is their type check.) Each
// check's output is printed whole when it ends, so two never interleave.
// Exit code: 0 when every check passed, else 1 (after every check has run, so one run shows every finding).
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = (project) => ['node_modules/typescript/bin/tsc', '--noEmit', '-p', project];

/** Longest first, so the last one to start is a short one. */
export const CHECKS = [
  { name: 'typecheck admin-ui', args: tsc('admin-ui') },
  { name: 'lint:folder-cycles', args: ['scripts/folder-cycles.mjs'] },
  { name: 'lint:layers', args: ['node_modules/dependency-cruiser/bin/dependency-cruise.mjs', 'src', 'mikro-orm.config.ts', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'] },
  { name: 'typecheck reference page', args: tsc('src/api/rest/reference-page') },
  { name: 'typecheck dashboard-ui', args: tsc('dashboard-ui') },
  { name: 'typecheck checkout-ui', args: tsc('checkout-ui') },
  { name: 'lint:suite-fixtures', args: ['scripts/suite-fixtures.mjs'] },
  { name: 'lint:raw-sql', args: ['scripts/raw-sql.mjs'] },
  { name: 'lint:table-owners', args: ['scripts/table-owners.mjs'] },
];

function run({ name, args }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => resolve({ name, ok: false, output: String(error) }));
    child.on('close', (code) => resolve({ name, ok: code === 0, output: Buffer.concat(output).toString() }));
  });
}

async function runAll(checks, concurrency) {
  const waiting = [...checks];
  const results = [];
  const lane = async () => {
    for (let check = waiting.shift(); check; check = waiting.shift()) {
      const result = await run(check);
      process.stdout.write(`${result.ok ? 'ok  ' : 'FAIL'} ${result.name}\n${result.output}`);
      results.push(result);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = await runAll(CHECKS, Math.max(2, os.availableParallelism()));
  const failed = results.filter((result) => !result.ok).map((result) => result.name);
  if (failed.length > 0) process.stdout.write(`static checks failed: ${failed.join(', ')}\n`);
  process.exitCode = failed.length > 0 ? 1 : 0;
}
