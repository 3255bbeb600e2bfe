import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import type { ReportResponse } from '@portal/shared'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { insertDispatches } from '../dispatches/dispatches.test-data'
import { DAY_SEEK_MIN_OFFSET } from './reports.service'

let t: TestContext
let admin: { 'x-auth-token': string }
const ROWS = 10_000
const PAGE = 100

/**
 * A deep report page is read from the end of the day holding its first row (the kept day
 * counts say how many rows the newer days hold): its rows must be exactly those the plain walk
 * gives, whatever the status and window, across day boundaries, ties of last access, and into
 * the never-accessed rows that come last.
 */
beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  await insertDispatches(t.database.db, [{ id: 'deep', destinationId: 'company-deep' }])
  // Every fifth learner never accessed; the rest 20 minutes apart in threes (ties), over 46 days.
  await t.database.db.execute(sql`
    insert into registration (id, dispatch_id, course_id, learner_id, learner_first_name, learner_last_name,
      learner_email, completion_status, success_status, last_access_date)
    select 'reg-' || lpad(g::text, 5, '0'), 'deep', 'c', 'L' || g, 'Ana', 'Smith' || g, 'learner' || g || '@example.test',
      case when g % 5 = 0 then 'not attempted' when g % 2 = 0 then 'completed' else 'incomplete' end, 'unknown',
      case when g % 5 = 0 then null else timestamptz '2026-01-01T00:00:00Z' + (g / 3) * interval '20 minutes' end
    from generate_series(1, ${ROWS}) as g`)
})
afterAll(async () => t.close())

async function page(query: string, n: number) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/reports/dispatch/deep?${query}&page=${n}&pageSize=${PAGE}`,
    headers: admin,
  })
  expect(res.statusCode, res.body).toBe(200)
  return res.json<ReportResponse>()
}

/** The filter's rows in the report's order, read straight from the table. */
async function expected(status: string | null, from: string | null, end: string | null) {
  const result = (await t.database.db.execute(sql`
    select id from registration
    where dispatch_id = 'deep' and removed_at is null
      and (${status}::text is null or completion_status = ${status})
      and (${from}::text is null or last_access_date >= (${from}::date)::timestamp at time zone 'UTC')
      and (${end}::text is null or last_access_date < ((${end}::date + 1)::timestamp at time zone 'UTC'))
    order by last_access_date desc nulls last, id`)) as unknown as { rows: { id: string }[] }
  return result.rows.map((r) => r.id)
}

const filters = [
  { query: '', status: null, from: null, end: null },
  { query: 'status=completed', status: 'completed', from: null, end: null },
  { query: 'startDate=2026-01-03&endDate=2026-01-20', status: null, from: '2026-01-03', end: '2026-01-20' },
  { query: 'status=incomplete&startDate=2026-01-02', status: 'incomplete', from: '2026-01-02', end: null },
]

describe('deep pages of the completion report', () => {
  it.each(filters)('are the rows the plain walk gives ($query)', async ({ query, status, from, end }) => {
    const rows = await expected(status, from, end)
    expect(rows.length).toBeGreaterThan(DAY_SEEK_MIN_OFFSET + PAGE)
    const last = Math.ceil(rows.length / PAGE)
    // Twenty pages from the first one placed (a few days' rows), and the last ten.
    const pages = [...Array(20).keys()].map((i) => DAY_SEEK_MIN_OFFSET / PAGE + 1 + i)
    pages.push(...[...Array(10).keys()].map((i) => last - 9 + i))
    for (const n of pages) {
      const body = await page(query, n)
      expect(body.pagination.totalItems).toBe(rows.length)
      expect(body.registrations.map((r) => r.id)).toEqual(rows.slice((n - 1) * PAGE, n * PAGE))
    }
  })

  describe('with the newest day counted seven rows too many', () => {
    // Counts that say more than the table holds show which pages the counts place: such a page
    // starts seven rows early. (The triggers never leave such counts; the test writes them.)
    // Pages not read above (a page is cached while the dispatch's registrations are unchanged).
    const deep = DAY_SEEK_MIN_OFFSET / PAGE + 30
    const shift = (by: number) =>
      t.database.db.execute(sql`update dispatch_access_day set registrations = registrations + ${by}
        where dispatch_id = 'deep' and completion_status = 'completed'
          and day = (select max(day) from dispatch_access_day where dispatch_id = 'deep')`)
    beforeAll(async () => shift(7))
    afterAll(async () => shift(-7))

    it('a deep page is placed by the kept counts', async () => {
      const rows = await expected(null, null, null)
      const body = await page('', deep)
      expect(body.registrations.map((r) => r.id)).toEqual(rows.slice((deep - 1) * PAGE - 7, deep * PAGE - 7))
    })

    it('a shallower page walks the index from the start', async () => {
      const rows = await expected(null, null, null)
      const n = DAY_SEEK_MIN_OFFSET / PAGE - 1
      const body = await page('', n)
      expect(body.registrations.map((r) => r.id)).toEqual(rows.slice((n - 1) * PAGE, n * PAGE))
    })

    it('a deep page walks the index while the dispatch aggregates wait for their build', async () => {
      const rows = await expected(null, null, null)
      await t.database.db.execute(sql`update dispatch_stat set building = true where dispatch_id = 'deep'`)
      try {
        const body = await page('', deep + 1)
        expect(body.registrations.map((r) => r.id)).toEqual(rows.slice(deep * PAGE, (deep + 1) * PAGE))
      } finally {
        await t.database.db.execute(sql`update dispatch_stat set building = false where dispatch_id = 'deep'`)
      }
    })
  })
})
