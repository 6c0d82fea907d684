import { stringify } from 'csv-stringify/sync';

/**
 * CSV as the dashboard's exports write it (docs/dashboard.md, "Exports"): RFC 4180 (comma, CRLF between
 * records, a field quoted when it holds a comma, a quote or a line break, quotes doubled), written by
 * csv-stringify a page of rows at a time.
 */
export type CsvCell = string | number | bigint | boolean | null | undefined;

/** A plain decimal number is a number, not a formula: "-12.50" stays as it is. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
/** What a spreadsheet may take as the start of a formula (OWASP, "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell as text, safe to open in a spreadsheet: a text beginning with `=`, `+`, `-`, `@`, a tab or a carriage
 * return is prefixed with `'`, so it is shown as text and never run as a formula (a customer's name or a metadata
 * value is the seller's customer's to choose). Plain decimal numbers (amounts) are left as they are.
 */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'boolean' ? (value ? 'true' : 'false') : String(value);
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** Rows (each an array of cells) as RFC 4180 records, each ending in CRLF. */
export function csvRecords(rows: readonly (readonly CsvCell[])[]): string {
  if (rows.length === 0) return '';
  return stringify(rows.map((row) => row.map(csvCell)), { record_delimiter: '\r\n', quoted_match: /^\s|\s$/ });
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
