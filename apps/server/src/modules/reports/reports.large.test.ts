import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import type { ReportResponse } from '@portal/shared'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { insertDispatches } from '../dispatches/dispatches.test-data'
import { REPORT_SEARCH_COUNT_CAP, REPORT_SEARCH_GATHER_ROWS, createReportsRepository } from './reports.repository'

let t: TestContext
let admin: { 'x-auth-token': string }
const ROWS = 1_500

/**
 * On a dispatch larger than the search cap: pages walked from either end agree with
 * one another, a search past the cap says "1,000+", and short terms match where a word starts.
 */
beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  await insertDispatches(t.database.db, [{ id: 'big', destinationId: 'company-big' }])
  // Every third learner never accessed; the rest one minute apart; some share a last access.
  await t.database.db.execute(sql`
    insert into registration (id, dispatch_id, course_id, learner_id, learner_first_name, learner_last_name,
      learner_email, completion_status, success_status, last_access_date)
    select 'reg-' || lpad(g::text, 5, '0'), 'big', 'c', 'L' || g,
      case when g % 2 = 0 then 'Jonas' else 'Ana' end, 'Smith' || g, 'learner' || g || '@example.test',
      case when g % 3 = 0 then 'completed' else 'incomplete' end, 'unknown',
      case when g % 3 = 1 then null else timestamptz '2026-01-01T00:00:00Z' + (g / 2) * interval '1 minute' end
    from generate_series(1, ${ROWS}) as g`)
})
afterAll(async () => t.close())

const get = async (query: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/reports/dispatch/big?${query}`, headers: admin })
  expect(res.statusCode, res.body).toBe(200)
  return res.json<ReportResponse>()
}

describe('completion report of a large dispatch', () => {
  it('gives the same rows in the same order whichever end a page is walked from', async () => {
    const all: string[] = []
    for (let page = 1; page <= ROWS / 100; page += 1) {
      const body = await get(`page=${page}&pageSize=100`)
      expect(body.pagination).toMatchObject({ totalItems: ROWS, totalPages: ROWS / 100 })
      all.push(...body.registrations.map((r) => r.id))
    }
    expect(new Set(all).size).toBe(ROWS)
    const expected = (
      (await t.database.db.execute(sql`
        select id from registration where dispatch_id = 'big'
        order by last_access_date desc nulls last, id`)) as unknown as { rows: { id: string }[] }
    ).rows.map((r) => r.id)
    expect(all).toEqual(expected)
    // A last page that is not full, walked from the end.
    const last = await get('page=16&pageSize=100')
    expect(last.registrations.map((r) => r.id)).toEqual([])
    const partial = await get('page=31&pageSize=50&status=completed')
    expect(partial.pagination.totalItems).toBe(ROWS / 3)
    expect(partial.registrations).toHaveLength(0)
    const lastCompleted = await get('page=10&pageSize=50&status=completed')
    expect(lastCompleted.registrations.map((r) => r.id)).toEqual(
      expected.filter((id) => Number(id.slice(4)) % 3 === 0).slice(450, 500),
    )
  })

  it('counts a search exactly below the cap and says "1,000+" past it', async () => {
    const few = await get('search=smith1')
    // smith1, smith10-19, smith100-199, smith1000-1500: 1 + 10 + 100 + 501 rows.
    expect(few).toMatchObject({ totalCapped: false, pagination: { totalItems: 612 }, distinctLearners: 612 })
    const many = await get('search=smith')
    expect(many).toMatchObject({ totalCapped: true, pagination: { totalItems: REPORT_SEARCH_COUNT_CAP } })
    expect(many.registrations).toHaveLength(100)
    expect(many.registrations[0]!.id).toBe('reg-01500')
  })

  it('matches one or two letters where a word starts: first name, last name or e-mail', async () => {
    const jo = await get('search=jo&pageSize=10')
    expect(jo.pagination.totalItems).toBe(ROWS / 2) // every "Jonas", nothing inside a word
    expect(jo.registrations.every((r) => r.learnerFirstName === 'Jonas')).toBe(true)
    const na = await get('search=na&pageSize=10')
    expect(na.pagination.totalItems).toBe(0) // "Ana" and "Jonas" hold "na", but not at a word start
    const le = await get('search=le&pageSize=10')
    expect(le.pagination.totalItems).toBe(REPORT_SEARCH_COUNT_CAP) // learner…@: every e-mail
    expect(le.totalCapped).toBe(true)
  })

  it('pages a search the same whether it walks the report index or sorts its trigram matches', async () => {
    // "smith1" (612 matches) and "jo" (750, a word start): exact totals, so both pages are
    // taken from their matches, in the report's order. Searches past the cap: the next describe.
    for (const [term, pattern, matches] of [
      ['smith1', '% smith1%', 612],
      ['jo', 'jonas %', ROWS / 2],
    ] as const) {
      const expected = (
        (await t.database.db.execute(sql`
          select id from registration where dispatch_id = 'big'
            and lower(learner_first_name || ' ' || learner_last_name) like ${pattern}
          order by last_access_date desc nulls last, id`)) as unknown as { rows: { id: string }[] }
      ).rows.map((r) => r.id)
      expect(expected).toHaveLength(matches)
      const seen: string[] = []
      for (let page = 1; page <= Math.ceil(matches / 50); page += 1) {
        const body = await get(`search=${term}&page=${page}&pageSize=50`)
        seen.push(...body.registrations.map((r) => r.id))
      }
      expect(seen).toEqual(expected)
    }
  })
})

describe('completion report: a search past the cap, walked or from its matches', () => {
  /** More rows than any page's walk reaches (db/search.ts searchWalkRows). */
  const RECENT = 2_100
  const OLDER = 1_100

  beforeAll(async () => {
    await insertDispatches(t.database.db, [{ id: 'big2', destinationId: 'company-big' }])
    // "Recent" learners fill the first rows of the report's order; "Zeta" ones come after them.
    await t.database.db.execute(sql`
      insert into registration (id, dispatch_id, course_id, learner_id, learner_first_name, learner_last_name,
        learner_email, completion_status, success_status, last_access_date)
      select 'b2-' || lpad(g::text, 5, '0'), 'big2', 'c', 'B' || g,
        case when g <= ${RECENT} then 'Recent' else 'Zeta' end, 'Person' || g, 'p' || g || '@example.test',
        'incomplete', 'unknown', timestamptz '2026-06-01T00:00:00Z' - (g / 2) * interval '1 minute'
      from generate_series(1, ${RECENT + OLDER}) as g`)
  })

  it('gives every page of a term in the report order, whether its page is walked or sorted', async () => {
    for (const [term, first, rows] of [
      ['recent', 'Recent', RECENT],
      ['zeta', 'Zeta', OLDER],
    ] as const) {
      const expected = (
        (await t.database.db.execute(sql`
          select id from registration where dispatch_id = 'big2' and learner_first_name = ${first}
          order by last_access_date desc nulls last, id`)) as unknown as { rows: { id: string }[] }
      ).rows.map((r) => r.id)
      expect(expected).toHaveLength(rows)
      const seen: string[] = []
      for (let page = 1; page <= Math.ceil(rows / 100); page += 1) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/reports/dispatch/big2?search=${term}&page=${page}&pageSize=100`,
          headers: admin,
        })
        expect(res.statusCode, res.body).toBe(200)
        const body = res.json<ReportResponse>()
        expect([body.totalCapped, body.pagination.totalItems]).toEqual([true, REPORT_SEARCH_COUNT_CAP])
        seen.push(...body.registrations.map((r) => r.id))
      }
      expect(seen).toEqual(expected)
    }
  })

  it('gathers the matches of a term once for its totals and page, unless they are more than it gathers', async () => {
    const reports = createReportsRepository(t.database.db)
    const expected = (
      (await t.database.db.execute(sql`
        select id from registration where dispatch_id = 'big2'
        order by last_access_date desc nulls last, id`)) as unknown as { rows: { id: string }[] }
    ).rows.map((r) => r.id)
    // "recent": 2,100 matches, all gathered: totals at the cap, the page sorted from them.
    const recent = await reports.gather({ dispatchId: 'big2', search: 'recent' }, 100, 1_000)
    expect(recent.totals).toEqual({
      total: REPORT_SEARCH_COUNT_CAP,
      distinctLearners: REPORT_SEARCH_COUNT_CAP,
      capped: true,
    })
    const ids = (json: string | null) => (JSON.parse(json ?? 'null') as { id: string }[] | null)?.map((r) => r.id)
    expect(ids(recent.rowsJson)).toEqual(expected.slice(1_000, 1_100))
    // "person31" below the cap (31, 310-319, 3100-3199), on a page past its end: exact totals, no rows.
    const few = await reports.gather({ dispatchId: 'big2', search: 'person31', status: 'incomplete' }, 100, 200)
    expect(few).toMatchObject({ totals: { total: 111, distinctLearners: 111, capped: false }, rowsJson: '[]' })
    // "person": every one of the 3,200 rows, more than gathered: no page from the gathering...
    expect(RECENT + OLDER).toBeGreaterThan(REPORT_SEARCH_GATHER_ROWS)
    const person = await reports.gather({ dispatchId: 'big2', search: 'person' }, 100, 0)
    expect(person).toMatchObject({ totals: { capped: true }, rowsJson: null })
    // ...and the report's pages of it, read the other way, are still the report's order.
    for (const page of [1, 2, 25]) {
      const body = await t.app.inject({
        method: 'GET',
        url: `/api/reports/dispatch/big2?search=person&page=${page}&pageSize=100`,
        headers: admin,
      })
      expect(body.json<ReportResponse>().registrations.map((r) => r.id)).toEqual(
        expected.slice((page - 1) * 100, page * 100),
      )
    }
  })
})
