import { describe, expect, it } from 'vitest'
import { CSV_MISSING, csvCell, csvRow } from './csv'

describe('csvCell (RFC 4180 and the formula guard of docs/product-decisions.md D22)', () => {
  it.each<[string | number | null | undefined, string]>([
    // missing values
    [null, CSV_MISSING],
    [undefined, CSV_MISSING],
    ['', CSV_MISSING],
    // plain cells stay as they are
    ['LOGIN_SUCCESS', 'LOGIN_SUCCESS'],
    ['Ada Admin', 'Ada Admin'],
    [42, '42'],
    ['10.0.0.1', '10.0.0.1'],
    ["a'b", "a'b"],
    // quoting: comma, quote, CR, LF
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['"', '""""'],
    ['line1\nline2', '"line1\nline2"'],
    ['line1\r\nline2', '"line1\r\nline2"'],
    ['{"message":"x"}', '"{""message"":""x""}"'],
    // formula injection: = + - @ tab CR LF NUL at the start
    ['=SUM(A1:A2)', "'=SUM(A1:A2)"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@cmd', "'@cmd"],
    ['\tx', "'\tx"],
    ['\rx', '"\'\rx"'],
    ['\nx', '"\'\nx"'],
    ['\0x', "'\0x"],
    // both: guarded, then quoted
    ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
    ['-1,2', '"\'-1,2"'],
    // after leading blanks (space, no-break, ideographic), and in full-width forms
    [' =1+1', "' =1+1"],
    ['   @cmd', "'   @cmd"],
    ['\u00A0-2', "'\u00A0-2"],
    ['\u3000=1', "'\u3000=1"],
    ['\uFF1DSUM(A1)', "'\uFF1DSUM(A1)"],
    ['\uFF0B1', "'\uFF0B1"],
    ['\uFF0D1', "'\uFF0D1"],
    ['\uFF20cmd', "'\uFF20cmd"],
    [' \uFF1D1', "' \uFF1D1"],
    [' \t=1', "' \t=1"],
    // blanks before harmless text, and only the first character that is not blank counts
    [' hello', ' hello'],
    ['   ', '   '],
    ['a =b', 'a =b'],
    ['x\uFF1D1', 'x\uFF1D1'],
    // only the first character counts
    ['a=b', 'a=b'],
    ['x-1', 'x-1'],
  ])('%j → %j', (value, expected) => {
    expect(csvCell(value)).toBe(expected)
  })
})

describe('csvRow', () => {
  it('joins cells with commas and ends the record with CRLF', () => {
    expect(csvRow(['a', null, 'b,c', '=1'])).toBe('a,N/A,"b,c",\'=1\r\n')
  })
})
