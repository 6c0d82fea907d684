import { readFileSync } from 'node:fs';
import path from 'node:path';

// graphql-js decides once, when it is first loaded, whether to run its costly multi-realm `instanceof` checks
// (docs/performance.md): every entry point must set NODE_ENV before anything imports graphql.
const ENTRY_POINTS = ['main.ts', 'worker.ts', 'cli.ts'];

function withNodeEnv(value: string | undefined, run: () => void): string | undefined {
  const saved = process.env.NODE_ENV;
  if (value === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = value;
  try {
    jest.isolateModules(() => run());
    return process.env.NODE_ENV;
  } finally {
    process.env.NODE_ENV = saved;
  }
}

test('an unset NODE_ENV becomes production', () => {
  expect(withNodeEnv(undefined, () => require('../../src/apps/production-mode'))).toBe('production');
});

test('a NODE_ENV someone chose is kept', () => {
  expect(withNodeEnv('development', () => require('../../src/apps/production-mode'))).toBe('development');
});

test.each(ENTRY_POINTS)('%s imports production-mode before anything else', (file) => {
  const source = readFileSync(path.join(__dirname, '../../src/apps', file), 'utf8');
  const firstImport = source.split('\n').find((line) => line.startsWith('import '));
  expect(firstImport).toBe("import './production-mode';");
});
