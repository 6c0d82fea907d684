import { ERROR_CATALOGUE, type ErrorCode } from '../../src/shared/errors';

/** One entry of the error catalogue: its code, HTTP status, and a pattern matching its message (details as `.+`). */
export interface CatalogueEntry {
  code: string;
  status: number;
  pattern: RegExp;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Stands for each detail while a templated message is rendered, then becomes `(.+)` in the pattern. */
const DETAIL = '\u0001detail\u0001';

function messagePattern(message: string | ((...details: never[]) => string)): RegExp {
  if (typeof message === 'string') return new RegExp(`^${escape(message)}$`);
  const rendered = (message as (...details: string[]) => string)(...Array<string>(message.length).fill(DETAIL));
  return new RegExp(`^${rendered.split(DETAIL).map(escape).join('(.+)')}$`, 's');
}

/** Every entry of the catalogue (src/shared/errors.ts), with its message as a pattern. */
export function readErrorCatalogue(): CatalogueEntry[] {
  return (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).map((code) => {
    const { status, message } = ERROR_CATALOGUE[code];
    return { code, status, pattern: messagePattern(message) };
  });
}

/** The catalogue entry whose message this is (the first, when templates overlap), or undefined. */
export function catalogueEntryFor(catalogue: CatalogueEntry[], message: string): CatalogueEntry | undefined {
  return catalogue.find((entry) => entry.pattern.test(message));
}
