import fs from 'node:fs';
import path from 'node:path';
import { loadMigrations, MIGRATION_NAMES } from '../../src/platform/db/migrations';

/**
 * Migrations are frozen history: each one's SQL is written out and it imports nothing but MikroORM, so a change
 * to live code (a lifecycle table, a helper) never changes what an old migration does on a fresh database. They
 * run in the order of MIGRATION_NAMES, which is their timestamps' order.
 */
const FOLDER = path.join(__dirname, '../../src/platform/db/migrations');

const read = (name: string) => fs.readFileSync(path.join(FOLDER, `${name}.ts`), 'utf8');

/**
 * The file's code without its comments, with each string literal replaced by `"#<index>"` into `literals` and each
 * template literal by `"#T"` (its `${…}` expressions kept as code), so SQL text never reads as an import.
 */
function scan(text: string): { code: string; literals: string[] } {
  let code = '';
  const literals: string[] = [];
  let i = 0;
  const template = () => {
    while (i < text.length) {
      if (text[i] === '\\') i += 2;
      else if (text[i] === '`') return void i++;
      else if (text[i] === '$' && text[i + 1] === '{') {
        i += 2;
        code += ' (';
        codeUntil('}');
        code += ') ';
      } else i++;
    }
  };
  const codeUntil = (closing?: '}') => {
    let depth = 0;
    while (i < text.length) {
      const c = text[i];
      if (c === '/' && text[i + 1] === '/') {
        while (i < text.length && text[i] !== '\n') i++;
      } else if (c === '/' && text[i + 1] === '*') {
        const end = text.indexOf('*/', i + 2);
        i = end < 0 ? text.length : end + 2;
        code += ' ';
      } else if (c === "'" || c === '"') {
        let value = '';
        for (i++; i < text.length && text[i] !== c; i++) value += text[i] === '\\' ? text[++i] : text[i];
        i++;
        code += `"#${literals.push(value) - 1}"`;
      } else if (c === '`') {
        i++;
        code += '"#T"';
        template();
      } else {
        if (c === '{') depth++;
        if (c === '}' && depth-- === 0 && closing) return void i++;
        code += c;
        i++;
      }
    }
  };
  codeUntil();
  return { code, literals };
}

/** What the file imports: `import … from`, `export … from`, `import '…'`, `require(…)` and `import(…)`. */
function importsOf(text: string): string[] {
  const { code, literals } = scan(text);
  const found = [...code.matchAll(/\b(?:from|import)\s*"#(\d+)"/g)].map((m) => literals[Number(m[1])]);
  for (const call of code.matchAll(/\b(?:require|import)\s*\(([^)]*)\)/g)) {
    const literal = /^\s*"#(\d+)"\s*$/.exec(call[1]);
    found.push(literal ? literals[Number(literal[1])] : `${call[0]} (not a literal)`);
  }
  return found;
}

test('every file of the folder is a listed migration, listed once, and each name loads its class', () => {
  const files = fs.readdirSync(FOLDER).filter((file) => file !== 'index.ts');
  expect(files.sort()).toEqual(MIGRATION_NAMES.map((name) => `${name}.ts`).sort());
  expect(new Set(MIGRATION_NAMES).size).toBe(MIGRATION_NAMES.length);
  for (const { name, class: migration } of loadMigrations()) {
    expect(typeof migration).toBe('function');
    expect((migration as { name: string }).name).toBe(name);
  }
});

test('the list is in timestamp order', () => {
  for (const name of MIGRATION_NAMES) expect(name).toMatch(/^Migration\d{14}_\w+$/);
  expect(MIGRATION_NAMES).toEqual([...MIGRATION_NAMES].sort());
});

test('a migration imports nothing but @mikro-orm/*', () => {
  const outside = MIGRATION_NAMES.flatMap((name) => {
    const imports = importsOf(read(name));
    // Every migration extends MikroORM's Migration: an import the scan did not see would show here.
    expect(imports).toContain('@mikro-orm/migrations');
    return imports.filter((specifier) => !/^@mikro-orm\/[\w.-]+$/.test(specifier)).map((specifier) => `${name}: ${specifier}`);
  });
  expect(outside).toEqual([]);
});

test('the import scan sees every form of import and no SQL', () => {
  const text = [
    `import { Migration } from '@mikro-orm/migrations';`,
    `import type { Options } from "@mikro-orm/core";`,
    `import {\n  sqlList,\n} from '../../lifecycle/lifecycle'; // from 'commented'`,
    `/* import { gone } from '../commented'; */`,
    `import '../side-effect';`,
    `export { x } from './other';`,
    `const a = require('../required');`,
    `const b = require(\`./\${name}\`);`,
    'this.addSql(`select "id" from "payments" where "status" in (${require(\'../in-template\').list})`);',
    `this.addSql('select 1 from "t"');`,
  ].join('\n');
  expect(importsOf(text)).toEqual([
    '@mikro-orm/migrations',
    '@mikro-orm/core',
    '../../lifecycle/lifecycle',
    '../side-effect',
    './other',
    '../required',
    expect.stringMatching(/^require\(.*\(not a literal\)$/),
    '../in-template',
  ]);
});
