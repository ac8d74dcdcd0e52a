/**
 * CSV (RFC 4180: comma separated, CRLF line ends, quotes doubled) that is safe to open in a
 * spreadsheet: a text cell starting with = + - @ (or a tab or carriage return) would be run as a
 * formula, so it gets a leading apostrophe and is shown as the text it is (OWASP "CSV injection").
 */
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  // Numbers and booleans are written by us, never by a user: no formula can hide in them.
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map(csvLine).join('');
}

/** One row, with its CRLF. */
export function csvLine(row: readonly CsvValue[]): string {
  return `${row.map(csvCell).join(',')}\r\n`;
}
