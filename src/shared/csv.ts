/**
 * CSV as the dashboard's exports write it (docs/dashboard.md, "Exports"): RFC 4180 (comma, CRLF between
 * records, a field quoted when it holds a comma, a quote, a CR or an LF, or begins or ends with white space; quotes
 * doubled), a page of rows at a time.
 */
export type CsvCell = string | number | bigint | boolean | null | undefined;

/** A plain decimal number is a number, not a formula: "-12.50" stays as it is. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
/**
 * What a spreadsheet may take as the start of a formula (OWASP, "CSV injection"): `=`, `+`, `-`, `@` (or their
 * full-width forms, which spreadsheets fold to ASCII) past any white space, line breaks or control characters, which
 * some readers skip; or a leading tab or line break.
 */
const FORMULA_START = /^[\s\u0000-\u001f]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r\n]/;
/** A line break inside a cell: a reader that takes a bare CR (or LF) as the end of a record starts a new one there. */
const LINE_BREAK = /(\r\n|\r|\n)/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/**
 * A cell as text, safe to open in a spreadsheet: a text that could start a formula (FORMULA_START) is prefixed with
 * `'`, so it is shown as text and never run, and so is every line of it after a line break, for a reader that
 * splits the cell there (a customer's name or a metadata value is the seller's customer's to choose). Plain decimal
 * numbers (amounts) are left as they are.
 */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'boolean' ? (value ? 'true' : 'false') : String(value);
  if (PLAIN_NUMBER.test(text)) return text;
  const parts = text.split(LINE_BREAK);
  const guarded = parts.map((part, i) => (i > 0 && i % 2 === 0 && FORMULA_START.test(part) ? `'${part}` : part)).join('');
  return FORMULA_START.test(text) ? `'${guarded}` : guarded;
}

/** A cell as an RFC 4180 field: quoted, its quotes doubled, when it holds a quote, comma, CR or LF (or edge white space). */
function csvField(value: CsvCell): string {
  const text = csvCell(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows (each an array of cells) as RFC 4180 records, each ending in CRLF. */
export function csvRecords(rows: readonly (readonly CsvCell[])[]): string {
  let out = '';
  for (const row of rows) out += `${row.map(csvField).join(',')}\r\n`;
  return out;
}

/** Integer cents as dollars with two decimals, exact at any size: 1250 -> "12.50", -5 -> "-0.05". */
export function dollars(cents: number | bigint | string): string {
  const value = BigInt(cents);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/** A time as ISO 8601 in UTC (empty for none); a string is PostgreSQL's text of a timestamptz ("2026-03-01 09:15:00.123+00"). */
export function isoTime(value: Date | string | null | undefined): string {
  if (value === null || value === undefined) return '';
  return timeOf(value).toISOString();
}

/** A timestamptz as PostgreSQL's text gives it (raw queries), or a Date, as a Date. */
export function timeOf(value: Date | string): Date {
  if (value instanceof Date) return value;
  return new Date(value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
}
