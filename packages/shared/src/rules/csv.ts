/**
 * CSV cells and rows (docs/product-rules.md §5, §7; docs/product-decisions.md D22): RFC 4180 quoting and the formula-injection
 * guard. Pure, so the server's streamed export and any browser export write the same bytes.
 */

/** docs/product-rules.md §7: a missing value is written as N/A. */
export const CSV_MISSING = 'N/A'

/** RFC 4180 §2: records end with CRLF. */
export const CSV_LINE_END = '\r\n'

/**
 * docs/product-decisions.md D22: a cell beginning with one of these could start a formula in a spreadsheet
 * (OWASP "CSV Injection"), so it is prefixed with a single quote. The full-width forms count
 * too: spreadsheets in East Asian locales read ＝ as =.
 */
export const CSV_FORMULA_STARTS = [
  '=',
  '+',
  '-',
  '@',
  '\t',
  '\r',
  '\n',
  '\0',
  '\uFF1D', // ＝
  '\uFF0B', // ＋
  '\uFF0D', // －
  '\uFF20', // ＠
] as const

/** Leading blanks a spreadsheet skips before it looks for a formula (space, no-break and ideographic spaces). */
const LEADING_BLANKS = /^[\s\u00A0\u3000\uFEFF]+/

/** True when the cell, or its text after leading blanks, starts with a formula character. */
export function startsLikeFormula(text: string): boolean {
  const starts = CSV_FORMULA_STARTS as readonly string[]
  return starts.includes(text.charAt(0)) || starts.includes(text.replace(LEADING_BLANKS, '').charAt(0))
}

const NEEDS_QUOTES = /[",\r\n]/

/** One cell: N/A when missing, guarded against formulas, then quoted if it must be. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return CSV_MISSING
  let text = String(value)
  if (text === '') return CSV_MISSING
  if (startsLikeFormula(text)) text = `'${text}`
  // RFC 4180 §2.6–2.7: cells with a comma, quote, CR or LF are quoted, inner quotes doubled.
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** One record, line end included. */
export function csvRow(cells: readonly (string | number | null | undefined)[]): string {
  return cells.map(csvCell).join(',') + CSV_LINE_END
}
