import fs from 'node:fs';
import path from 'node:path';
import { loadMigrations, MIGRATION_NAMES } from '../../src/platform/db/migrations';

const FOLDER = path.join(__dirname, '../../src/platform/db/migrations');

test('every migration file is listed once, and each name loads its class', () => {
  const files = fs.readdirSync(FOLDER).filter((file) => /^Migration\d+_\w+\.ts$/.test(file)).map((file) => file.replace(/\.ts$/, ''));
  expect([...MIGRATION_NAMES].sort()).toEqual(files.sort());
  expect(new Set(MIGRATION_NAMES).size).toBe(MIGRATION_NAMES.length);
  for (const { name, class: migration } of loadMigrations()) {
    expect(typeof migration).toBe('function');
    expect((migration as { name: string }).name).toBe(name);
  }
});
