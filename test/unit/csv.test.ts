import { parse } from 'csv-parse/sync';
import { csvCell, csvRecords, type CsvCell } from '../../src/shared/csv';

/**
 * The exports' CSV (src/shared/csv.ts): RFC 4180 as csv-parse reads it, and safe for a reader that takes a bare CR
 * (or LF) as the end of a record, as old spreadsheets do: no record it makes begins with a formula, and no cell of
 * any record either.
 */
const HOSTILE: CsvCell[] = [
  "Zed\r=cmd|' /C calc'!A0",
  'Zed\n+1+2',
  'Zed\r\n@SUM(A1:A9)',
  ' =1+1',
  '\r\n=1+1',
  '\u00a0\t-2+3',
  '\uFF1DHYPERLINK("x")',
  'two\r\rbreaks\r \u0007=x',
  'say "hi", then\nleave',
  'trailing ',
  '=',
  '-',
];
const SAFE: CsvCell[] = ['-12.50', '1250', -5, 3n, true, null, undefined, 'Ann Lee', '', 'a-b=c', 'x@y.z'];

/** Records as a reader splits them that takes CR, LF and CRLF alike as the end of a record outside quotes. */
function bareCrRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') record.push(field), (field = '');
    else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field), records.push(record), (record = []), (field = '');
    } else field += c;
  }
  if (field !== '' || record.length > 0) record.push(field), records.push(record);
  return records;
}

/** What a spreadsheet would run: a cell that starts, past white space and control characters, with a formula character. */
const runsAsFormula = (cell: string) => /^[\s\u0000-\u001f]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/.test(cell) && !/^-?\d+(\.\d+)?$/.test(cell);

test('every field holding a CR, an LF, a quote or a comma is quoted, and csv-parse reads back each cell whole', () => {
  const rows = [...HOSTILE, ...SAFE].map((cell) => ['pay_1', cell, 'end']);
  const text = csvRecords(rows);
  const parsed: string[][] = parse(text, { relax_quotes: false });
  expect(parsed).toEqual(rows.map((row) => row.map(csvCell)));
  expect(csvRecords([['a', 'b\rc']])).toBe('a,"b\rc"\r\n');
  expect(csvRecords([['a', 'b\nc']])).toBe('a,"b\nc"\r\n');
  expect(csvRecords([['Bob, "the builder"']])).toBe('"Bob, ""the builder"""\r\n');
  expect(csvRecords([[' padded']])).toBe('" padded"\r\n');
  for (const row of parsed) expect([row[1], runsAsFormula(row[1])]).toEqual([row[1], false]);
});

test('a reader that splits records on a bare CR finds no record, and no cell, that starts a formula', () => {
  const text = csvRecords(HOSTILE.map((cell) => [cell, 'x']));
  const records = bareCrRecords(text);
  // The quoted CRs keep each row one record for this reader too.
  expect(records).toHaveLength(HOSTILE.length);
  // A reader that ignores quotes as well cuts a cell at its line breaks: the piece after each break is guarded.
  const lines = text.split(/\r\n|\r|\n/).map((line) => line.replace(/^"/, ''));
  for (const cell of [...records.flat(), ...lines]) expect([cell, runsAsFormula(cell)]).toEqual([cell, false]);
});

test('the formula guard looks past white space and line breaks; plain numbers and harmless text stay as they are', () => {
  expect(csvCell("Zed\r=cmd|' /C calc'!A0")).toBe("Zed\r'=cmd|' /C calc'!A0");
  expect(csvCell(' =1+1')).toBe("' =1+1");
  expect(csvCell('\r\n=1+1')).toBe("'\r\n'=1+1");
  expect(csvCell('\tstarts with a tab')).toBe("'\tstarts with a tab");
  expect(csvCell('-3+4')).toBe("'-3+4");
  for (const cell of SAFE) expect(csvCell(cell)).toBe(cell === null || cell === undefined ? '' : String(cell));
});
