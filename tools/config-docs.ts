import fs from 'node:fs';
import path from 'node:path';
import { withGeneratedSection, writeOrPrint, type GeneratedSection } from '../src/shared/generated-section';
import { ConfigError, loadConfig } from '../src/shared/config';
import { PROJECT_ROOT } from '../src/shared/project-root';

/**
 * The configuration table of docs/reference.md, generated from src/shared/config.ts so it cannot drift: `npm run docs:config`
 * rewrites it, and test/unit/config-docs.test.ts fails when it is stale. Each setting's doc line in
 * config.ts reads `NAME: meaning (default X).` or `NAME: meaning; unset = what happens.`; what a setting
 * accepts is asked of loadConfig itself, by giving it a value no setting accepts and reading the refusal.
 */
export interface SettingDoc {
  name: string;
  /** The value used when the variable is unset, as written in the doc line; undefined for "unset = …". */
  default: string | undefined;
  /** "unset = …" text, or the default. */
  whenUnset: string;
  accepts: string;
  meaning: string;
}

const CONFIG_SOURCE = path.join(PROJECT_ROOT, 'src/shared/config.ts');
/** Where the table lives: the reference (operations.md and the README link to it). */
export const TABLE_FILE = path.join(PROJECT_ROOT, 'docs/reference.md');
export const TABLE_START = '<!-- config-table: generated from src/shared/config.ts by `npm run docs:config`; edit the doc lines there -->';
export const TABLE_END = '<!-- /config-table -->';

const DOC_LINE = /\/\*\*\s*([A-Z][A-Z0-9_]+): ([\s\S]*?)\s*\*\//g;
const DEFAULT = /\s*\(default ("[^"]*"|[^;:)]+)(?:[;:]\s*([^)]*))?\)/;
const UNSET = /;\s*unset = (.*)$/;

export function settingDocs(source = fs.readFileSync(CONFIG_SOURCE, 'utf8')): SettingDoc[] {
  return [...source.matchAll(DOC_LINE)].map(([, name, text]) => {
    const doc = text.replace(/\s*\n\s*\*\s*/g, ' ').replace(/\.$/, '');
    const unset = UNSET.exec(doc);
    const fallback = DEFAULT.exec(doc);
    const meaning = unset ? doc.slice(0, unset.index) : fallback ? doc.replace(DEFAULT, fallback[2] ? ` (${fallback[2]})` : '') : doc;
    const value = fallback?.[1].replace(/^"(.*)"$/, '$1');
    return { name, default: unset ? undefined : value, whenUnset: unset ? `unset: ${unset[1]}` : value === undefined ? 'unset' : `\`${value}\``, accepts: accepts(name), meaning };
  });
}

/** Every environment variable loadConfig reads, found by handing it an environment that records each lookup. */
export function settingsRead(): string[] {
  const read = new Set<string>();
  loadConfig(new Proxy({}, { get: (_, key) => (typeof key === 'string' && read.add(key), undefined) }));
  return [...read];
}

/** What loadConfig says it wants when given a value no setting accepts ("any value" when it takes anything). */
function accepts(name: string): string {
  try {
    loadConfig({ [name]: '?' });
    return 'any value';
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.message.replace(`Invalid configuration: ${name} `, '').replace(/^must be /, '').replace(/ \(got "\?"\)$/, '');
  }
}

export function configTable(docs = settingDocs()): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  return [
    '| Variable | When unset | Accepts | Meaning |',
    '|---|---|---|---|',
    ...docs.map((d) => `| \`${d.name}\` | ${cell(d.whenUnset)} | ${cell(d.accepts)} | ${cell(d.meaning.charAt(0).toUpperCase() + d.meaning.slice(1))}. |`),
  ].join('\n');
}

const TABLE_SECTION: GeneratedSection = { file: TABLE_FILE, start: TABLE_START, end: TABLE_END };

/** The page (docs/reference.md) with its table section replaced by `table`. */
export function withTable(page: string, table: string): string {
  return withGeneratedSection(page, TABLE_SECTION, table);
}

if (require.main === module) writeOrPrint(TABLE_SECTION, configTable(), process.argv);
