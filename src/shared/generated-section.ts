import fs from 'node:fs';
import path from 'node:path';

/** A docs page whose part between two marker comments is generated from the code (`npm run docs:*`). */
export interface GeneratedSection {
  file: string;
  start: string;
  end: string;
}

/** The page with its generated part replaced by `content`. */
export function withGeneratedSection(page: string, section: GeneratedSection, content: string): string {
  const start = page.indexOf(section.start);
  const end = page.indexOf(section.end);
  if (start < 0 || end < start) throw new Error(`${path.basename(section.file)} has no ${section.start} … ${section.end} section`);
  return `${page.slice(0, start + section.start.length)}\n${content}\n${page.slice(end)}`;
}

/** The generator's command line: `--write` rewrites the page's section, anything else prints `content`. */
export function writeOrPrint(section: GeneratedSection, content: string, argv: readonly string[]): void {
  if (argv.includes('--write')) fs.writeFileSync(section.file, withGeneratedSection(fs.readFileSync(section.file, 'utf8'), section, content));
  else process.stdout.write(`${content}\n`);
}
