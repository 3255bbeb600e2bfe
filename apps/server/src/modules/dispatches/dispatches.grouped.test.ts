import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import type { DispatchListResponse } from '@portal/shared'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { pageWay } from './dispatches-page.sql'

/**
 * Migration 0024: a staff search sorted by client or by course takes a shallow page
 * from the first rows of each matched course and company, deeper pages from all its matches
 * collected. Every page, both ways, must be the search's matches in the list's order, whatever
 * way it was read: rows matched by their course and their company at once come once, rows
 * matched by their id alone come too, a status narrows both.
 */
let t: TestContext
let admin: { 'x-auth-token': string }

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  const db = t.database.db
  await db.execute(sql`
    insert into company (id, name) select 'g-co-' || n,
      case when n = 3 then 'Alpha Holdings' when n = 4 then 'alpha holdings' else 'Company ' || n end
    from generate_series(1, 40) as n`)
  await db.execute(sql`
    insert into course (id, title) select 'g-course-' || n,
      case when n = 5 then 'Alpha Safety' when n = 6 then 'ALPHA Data' else 'Course ' || n end
    from generate_series(1, 40) as n`)
  // 2,000 dispatches; their company and course names repeat, so the keys tie and id decides.
  await db.execute(sql`
    insert into dispatch (id, course_id, destination_id, destination_name, course_title, enabled, registration_count)
    select 'g-' || lpad(n::text, 4, '0'), 'g-course-' || (n % 40 + 1), 'g-co-' || (n * 7 % 40 + 1),
      (select name from company where id = 'g-co-' || (n * 7 % 40 + 1)),
      (select title from course where id = 'g-course-' || (n % 40 + 1)),
      n % 3 <> 0, n % 50
    from generate_series(1, 2000) as n`)
  // Matched by their course and their company at once: listed once.
  await db.execute(sql`
    insert into dispatch (id, course_id, destination_id, destination_name, course_title)
    select 'a-both-' || n, 'g-course-5', 'g-co-' || (3 + n % 2), 'Alpha Holdings', 'Alpha Safety'
    from generate_series(1, 12) as n`)
  // Matched by their id alone ("alpha" in the id).
  await db.execute(sql`
    insert into dispatch (id, course_id, destination_id, destination_name, course_title)
    values ('alpha-by-id-1', 'g-course-1', 'g-co-1', 'Company 1', 'Course 1'),
           ('zz-alpha-by-id-2', 'g-course-2', 'g-co-2', 'Company 2', 'Course 2')`)
  await db.execute(sql`vacuum analyze dispatch`)
})
afterAll(async () => t.close())

/** The search's matches in the list's order, straight from the table. */
async function expected(sort: 'client' | 'course', order: 'asc' | 'desc', status: string): Promise<string[]> {
  const key = sort === 'client' ? sql.raw('lower(destination_name)') : sql.raw('lower(course_title)')
  const dir = sql.raw(order)
  const enabled = status === 'all' ? sql`true` : sql`enabled = ${status === 'enabled'}`
  const result = (await t.database.db.execute(sql`
    select id from dispatch
    where removed_at is null and ${enabled} and (
      course_id in (select id from course where lower(title) like '%alpha%')
      or destination_id in (select id from company where lower(name) like '%alpha%')
      or id ilike '%alpha%')
    order by ${key} ${dir}, id ${dir}`)) as unknown as { rows: { id: string }[] }
  return result.rows.map((row) => row.id)
}

describe('a search taken from the first rows of each group', () => {
  it('reads shallow pages by group and deeper ones collected, for these counts', () => {
    // 2 courses and 2 companies match; about 200 matches in a scope of 2,002.
    const way = (page: number) =>
      pageWay({ matches: 200, scope: 2002 }, true, 10, (page - 1) * 10, { sort: 'client', groups: 4 }).by
    expect(way(1)).toBe('grouped')
    expect(way(10)).toBe('collected')
    expect(way(20)).toBe('grouped') // the last page, walked from the end
    expect(pageWay({ matches: 200, scope: 2002 }, true, 10, 0, { sort: 'registrations', groups: 4 }).by).toBe(
      'collected',
    )
  })

  it.each([
    ['client', 'asc', 'all'],
    ['client', 'desc', 'enabled'],
    ['course', 'asc', 'disabled'],
    ['course', 'desc', 'all'],
  ] as const)('gives every page of a search sorted by %s %s (%s) in the list order', async (sort, order, status) => {
    const all = await expected(sort, order, status)
    expect(all.length).toBeGreaterThan(40)
    if (status !== 'disabled') expect(all).toEqual(expect.arrayContaining(['alpha-by-id-1']))
    const seen: string[] = []
    for (let page = 1; ; page += 1) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/dispatches?search=alpha&sort=${sort}&order=${order}&status=${status}&pageSize=10&page=${page}`,
        headers: admin,
      })
      expect(res.statusCode, res.body).toBe(200)
      const body = res.json<DispatchListResponse>()
      expect(body.pagination.totalItems).toBe(all.length)
      if (body.dispatches.length === 0) break
      seen.push(...body.dispatches.map((d) => d.id))
    }
    expect(seen).toEqual(all)
  })
})
