import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/shared/config';
import { configTable, settingDocs, settingsRead, TABLE_FILE, withTable } from '../../tools/config-docs';

const PAGE = fs.readFileSync(TABLE_FILE, 'utf8');

describe('the configuration table of docs/reference.md is generated from src/shared/config.ts', () => {
  test('docs/reference.md holds the table as generated now (if not: npm run docs:config)', () => {
    expect(path.relative(path.join(__dirname, '../..'), TABLE_FILE)).toBe(path.join('docs', 'reference.md'));
    expect(withTable(PAGE, configTable())).toBe(PAGE);
  });

  test('every variable loadConfig reads has a doc line, and every doc line names a variable it reads', () => {
    expect(settingDocs().map((d) => d.name).sort()).toEqual(settingsRead().sort());
  });

  test.each(settingDocs().filter((d) => d.default !== undefined).map((d) => [d.name, d.default!]))('%s: the documented default %j is the real one', (name, value) => {
    expect(loadConfig({ [name]: value })).toEqual(loadConfig({}));
  });

  test('a doc line gives the default, what is accepted (asked of loadConfig) and the meaning', () => {
    const port = settingDocs().find((d) => d.name === 'PORT')!;
    expect(port).toEqual({ name: 'PORT', default: '3000', whenUnset: '`3000`', accepts: 'an integer from 0 to 65535', meaning: 'TCP port of the HTTP server (0 picks a free port)' });
    expect(settingDocs('/** SOME_URL: where it goes; unset = nowhere. */')[0]).toMatchObject({ name: 'SOME_URL', default: undefined, whenUnset: 'unset: nowhere', meaning: 'where it goes' });
  });
});
